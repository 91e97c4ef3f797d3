// The registry of methods. Adding a method: one file exporting a MethodDefinition, one line in this list.
import { chainOfAgents } from './chain-of-agents.js';
import { compress } from './compress.js';
import { fullContext } from './full-context.js';
import { infMem } from './infmem.js';
import { mapReduce } from './map-reduce.js';
import { memAgent } from './memagent.js';
import { native } from './native.js';
import { rag } from './rag.js';
import { refine } from './refine.js';
import { reMemR1 } from './rememr1.js';
import { MethodRegistry } from './registry.js';

export const methods = new MethodRegistry([
  memAgent,
  fullContext,
  rag,
  infMem,
  reMemR1,
  chainOfAgents,
  refine,
  mapReduce,
  compress,
  native,
]);

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
