// The reference reader with every built-in family's reader skills (Family.readerSkills): the default wherever no
// catalog is at hand (`bench serve`'s fallback model, createLocalModel without skills, bench scripts and tests).
import type { ReaderSkill } from '../harness/reader-skill.js';
import type { ChatMessage } from '../harness/types.js';
import { builtinCatalog } from '../generators/index.js';
import { createReferenceReader, type ReferenceReply } from './reader/index.js';

let skills: readonly ReaderSkill[] | undefined;
let reader: ReferenceReply | undefined;

/** The built-in families' reader skills, in catalog order. */
export function builtinReaderSkills(): readonly ReaderSkill[] {
  skills ??= builtinCatalog().readerSkills.all();
  return skills;
}

/** The reader's reply (reference/reader/index.ts) knowing every built-in family's prompts. */
export function referenceReply(messages: ChatMessage[], maxTokens: number): string {
  reader ??= createReferenceReader(builtinReaderSkills());
  return reader(messages, maxTokens);
}
