// Protocol strings (data), used as given. LangChain's question-answering chains, chat variants (what ConditionalPromptSelector gives a chat model):
// langchain-ai/langchain libs/langchain/langchain/chains/question_answering/refine_prompts.py (22b8a03) and
// map_reduce_prompt.py (5b1b4f9). The human turn of each is the question alone.

export const REFINE_CHAT_INITIAL_SYSTEM =
  'Context information is below.\n------------\n{context_str}\n------------\nGiven the context information and not prior knowledge, answer any questions';

export const REFINE_CHAT_STEP =
  "We have the opportunity to refine the existing answer (only if needed) with some more context below.\n------------\n{context_str}\n------------\nGiven the new context, refine the original answer to better answer the question. If the context isn't useful, return the original answer.";

export const MAP_CHAT_SYSTEM =
  'Use the following portion of a long document to see if any of the text is relevant to answer the question. \nReturn any relevant text verbatim.\n______________________\n{context}';

export const COMBINE_CHAT_SYSTEM =
  "Given the following extracted parts of a long document and a question, create a final answer. \nIf you don't know the answer, just say that you don't know. Don't try to make up an answer.\n______________________\n{summaries}";
