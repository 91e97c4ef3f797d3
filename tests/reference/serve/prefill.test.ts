// bench serve continues a chat's final assistant message (vLLM's continue_final_message) over real HTTP: the reply
// is what a raw completion of the same text gives, and the flag pair is checked as vLLM checks it.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startServer } from '../../../reference/serve/server.js';
import { createOpenAIModel } from '../../../harness/models/openai/index.js';
import { echoModel } from './helpers.js';
import { messagesToRead } from '../../../reference/continue-final.js';
import { createLocalModel } from '../../../reference/local-model.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';

const USER = 'Which colour is the door of the red house? The red house has a green door.';
const PREFIX = ' Answer: the door is';

type ChatBody = OpenAI.ChatCompletionCreateParamsNonStreaming;

test('a chat ending in an assistant turn with continue_final_message is continued, as a completion of user + prefix', async () => {
  const server = await startServer({ model: echoModel() });
  try {
    const client = new OpenAI({ baseURL: server.url, apiKey: 'unused', maxRetries: 0 });
    const messages = [
      { role: 'user' as const, content: USER },
      { role: 'assistant' as const, content: PREFIX },
    ];
    const continued = await client.chat.completions.create({
      model: 'reference-reader',
      messages,
      max_tokens: 40,
      continue_final_message: true,
      add_generation_prompt: false,
    } as ChatBody);
    const completion = await client.completions.create({
      model: 'reference-reader',
      prompt: USER + PREFIX,
      max_tokens: 40,
    });
    const newTurn = await client.chat.completions.create({ model: 'reference-reader', messages, max_tokens: 40 });
    assert.equal(continued.choices[0].message.content, completion.choices[0].text);
    // Without the flag the assistant turn is finished and a new one answers it (echo reads the last message).
    assert.notEqual(newTurn.choices[0].message.content, continued.choices[0].message.content);
    assert.match(continued.choices[0].message.content ?? '', /is door the/);

    // vLLM refuses continue_final_message with add_generation_prompt left at its default (true).
    await assert.rejects(
      client.chat.completions.create({ model: 'reference-reader', messages, continue_final_message: true } as ChatBody),
      (err: unknown) => err instanceof OpenAI.BadRequestError && /add_generation_prompt/.test(err.message),
    );
    await assert.rejects(
      client.chat.completions.create({
        model: 'reference-reader',
        messages,
        continue_final_message: 'yes',
      } as unknown as ChatBody),
      (err: unknown) => err instanceof OpenAI.BadRequestError && /must be a boolean/.test(err.message),
    );
  } finally {
    await server.close();
  }
});

test("the harness's client sends an assistant prefill as continue_final_message, and gets the continuation", async () => {
  const server = await startServer({ model: echoModel() });
  try {
    const client = createOpenAIModel({ baseURL: server.url, modelName: 'reference-reader', sleep: async () => {} });
    const params = { maxTokens: 40, temperature: 0, topP: 1 };
    const prefill = await client.generate({
      messages: [
        { role: 'user', content: USER },
        { role: 'assistant', content: PREFIX },
      ],
      continueFinal: true,
      params,
    });
    const whole = await client.generate({ messages: [{ role: 'user', content: USER + PREFIX }], params });
    assert.equal(prefill.text, whole.text);
  } finally {
    await server.close();
  }
});

test('the embedded model reads a continued assistant turn as the end of the prompt, in process as over HTTP', async () => {
  const messages = [
    { role: 'system' as const, content: 'Be brief.' },
    { role: 'user' as const, content: USER },
    { role: 'assistant' as const, content: PREFIX },
  ];
  assert.deepEqual(messagesToRead({ messages, continueFinal: true }), [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: USER + PREFIX },
  ]);
  assert.deepEqual(messagesToRead({ messages }), messages, 'a finished assistant turn stays as it is');
  const local = createLocalModel(loadTokenizer('qwen2.5'));
  const params = { maxTokens: 40, temperature: 0, topP: 1 };
  const continued = await local.generate({ messages, continueFinal: true, params });
  const whole = await local.generate({ messages: messagesToRead({ messages, continueFinal: true }), params });
  assert.equal(continued.text, whole.text);
});
