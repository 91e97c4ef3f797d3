export { startServer, type ServerOptions, type RunningServer, type ServerStats } from './server.js';
export {
  serveOptionsFromFlags,
  SERVE_FLAGS,
  type ServeOptions,
  type ServeFlags,
  type ServeFlagName,
} from './options.js';
export { parseFaultSpec, NO_FAULTS, type FaultConfig, type FaultSpec, type FaultKind } from './faults.js';
export { modelFromReply, type ReplyFn, type ReplyModelOptions } from './reply-model.js';
