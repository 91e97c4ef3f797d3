// Protocol strings (data), used as given. Chain-of-Agents (arXiv 2406.02818, Tables 11-12), query-based worker and manager prompts as transcribed by
// Kaif10/Implementing-State-of-Art-AI-papers Chain_of_Agents/coa/prompts.py (no official code); {query} is named
// {question} here.

export const COA_WORKER =
  'Worker {i}:\n{chunk}\nHere is the summary of the previous source text: {prev_cu}\nQuestion: {question}\nYou need to read current source text and summary of previous source text (if any) and generate a summary to include them both. Later, this summary will be used for other agents to answer the Query, if any. So please write the summary that can include the evidence for answering the Query:';

export const COA_MANAGER =
  '{task_requirements}\nThe following are given passages. However, the source text is too long and has been summarized. You need to answer based on the summary:\n{final_cu}\nQuestion: {question}\nAnswer:';
