// The registry of methods. Adding a method: one file exporting a MethodDefinition, one line in this list.
import { fullContext } from './full-context.js';
import { memAgent } from './memagent.js';
import { native } from './native.js';
import { rag } from './rag.js';
import { MethodRegistry } from './registry.js';

export const methods = new MethodRegistry([memAgent, fullContext, rag, native]);

export {
  methodIdentity,
  planTotals,
  type CallKind,
  type MethodDefinition,
  type MethodFlagValues,
  type MethodOption,
  type OutputLength,
  type PlannedCall,
  type RegisteredMethod,
  type SettingsReader,
} from './registry.js';
