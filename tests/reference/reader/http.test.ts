// The embedded reference reader behind `bench serve`, driven by the real client, answers exactly as when called directly.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { startServer } from '../../../reference/serve/server.js';
import { parseFaultSpec } from '../../../reference/serve/faults.js';
import { modelFromReply } from '../../../reference/serve/reply-model.js';
import { createOpenAIModel } from '../../../harness/models/openai/index.js';
import { READER_ID } from '../../../reference/reader/index.js';
import { referenceReply } from '../../../reference/builtin-reader.js';
import type { ChatMessage } from '../../../harness/types.js';

const DOCS = [
  'Document 1:\nThe Zephyr Bridge was designed by Marta Olsen in 1931. It spans the Kell River.',
  'Document 2:\nMarta Olsen was born in Bergen and studied engineering in Oslo.',
  'Document 3:\nThe Kell River flows into the North Sea near the town of Harwick.',
];

function memagentUpdate(question: string, memory: string, section: string): ChatMessage[] {
  const content =
    'You are presented with a problem, a section of an article that may contain the answer to the problem, and a previous memory. ' +
    'Please read the provided section carefully and update the memory with the new information that helps to answer the problem. ' +
    `Be sure to retain all relevant details from the previous memory while adding any new, useful information.\n\n<problem> \n${question}\n</problem>\n\n` +
    `<memory>\n${memory}\n</memory>\n\n<section>\n${section}\n</section>\n\nUpdated memory:\n`;
  return [{ role: 'user', content }];
}

test('reference reader over HTTP (with faults) gives the same replies as a direct call', async () => {
  const reader = modelFromReply(referenceReply, { id: `local:${READER_ID}`, isReferenceReader: true });
  const server = await startServer({
    model: reader,
    faults: parseFaultSpec({ fail5xx: 0.2, fail429: 0.1, failMalformed: 0.05, retryAfterS: 1, seed: 1 }),
  });
  try {
    const client = createOpenAIModel({ baseURL: server.url, modelName: 'reference-reader', sleep: async () => {} });
    const question = 'Where was the designer of the Zephyr Bridge born?';
    let memory = 'No previous memory';
    for (const doc of DOCS) {
      const messages = memagentUpdate(question, memory, doc);
      const direct = referenceReply(messages, 1024);
      const viaHttp = await client.generate({ messages, params: { maxTokens: 1024, temperature: 0.7, topP: 0.95 } });
      assert.equal(viaHttp.text, direct);
      memory = viaHttp.text;
    }
    assert.notEqual(memory, 'No previous memory');
    console.log(
      `  retries: ${JSON.stringify(client.stats().retriesByReason)}; server faults: ${JSON.stringify(server.stats().faults)}`,
    );
  } finally {
    await server.close();
  }
});
