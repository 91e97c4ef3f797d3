// What a benchmark family teaches the embedded reference reader (reference/reader/) about its own prompts. The
// reader's lexical machinery (sentence scoring, line memory, answer spans) is generic; a family's question forms and
// answer rules (RULER's needle keys, its variable chains) live in the family's folder behind this contract, are
// listed on its Family (readerSkills) and are handed to the reader when the embedded model is built.
// Every function is pure and sees only text the model is sent: never gold answers or sample metadata.

/** A question the family answers by its own rule. Each part is optional; where it is missing, or returns null, the
 *  reader falls back to its lexical reading. */
export interface SkilledQuestion {
  /** The answer read from a whole text (the prompt's context), or null. */
  answerFromText?(text: string): string | null;
  /** The answer read from a MemAgent memory the reader wrote, or null. */
  answerFromMemory?(memory: string): string | null;
  /** The family's own MemAgent memory update (replacing the reader's line memory), or undefined. */
  updateMemory?(memory: string, section: string, maxTokens: number): string;
  /** Sentences the line memory must keep first: those that state a fact (isFact, on lowercase text) and name one of
   *  the keys (matched case-insensitively). */
  keep?: { keys: readonly string[]; isFact(lowerSentence: string): boolean };
}

/** What a bare prompt (the family's own template, no method wrapper) asks for. */
export type PromptReading =
  /** A question about the context: the reader answers it (through a SkilledQuestion where one applies). */
  | { kind: 'question'; question: string; context: string }
  /** An extractive summary of the context, steered by the query when there is one. */
  | { kind: 'summary'; query: string | null; context: string }
  /** The family answered the prompt itself (passage retrieval, counting, ...). */
  | { kind: 'answer'; text: string };

/** The reader's own primitives that a skill may use, so that a family's rule and the reader agree on words. */
export interface ReaderTools {
  /** The reader's key of a word: lowercase, with common inflections folded ("Albums" → "album"). */
  wordKey(word: string): string;
}

export interface ReaderSkill {
  /** Unique across families, e.g. 'ruler-niah'. */
  readonly name: string;
  /** What a bare prompt of this family asks for, or null when it is not one. */
  readPrompt?(prompt: string, tools: ReaderTools): PromptReading | null;
  /** The question as one of this family's kinds, or null when it is not one. */
  question?(question: string): SkilledQuestion | null;
  /** The words of a question the reader should weigh, when the family wraps the question in an instruction (RULER's
   *  qa: "Answer the question based on the given documents. {query}"), or null when it does not. */
  questionText?(question: string): string | null;
}
