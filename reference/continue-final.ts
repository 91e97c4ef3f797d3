// A chat whose last message is an assistant turn to continue (ModelRequest.continueFinal; vLLM's
// continue_final_message): the model writes on from that text, so the reader reads it as the end of the prompt, the
// last user message followed by the assistant's start. The reply is the continuation only, as vLLM returns it. With
// the answer prefix as that start, the reader reads exactly what a raw completion of prompt + prefix gives it.
import type { ChatMessage, ModelRequest } from '../harness/types.js';

export function messagesToRead(request: Pick<ModelRequest, 'messages' | 'continueFinal'>): ChatMessage[] {
  const { messages } = request;
  const last = messages[messages.length - 1];
  if (!request.continueFinal || last?.role !== 'assistant') return messages;
  const user = messages.map((m) => m.role).lastIndexOf('user');
  if (user < 0) return messages;
  return [
    ...messages.slice(0, user),
    { role: 'user', content: messages[user].content + last.content },
    ...messages.slice(user + 1, -1),
  ];
}
