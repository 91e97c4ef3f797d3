// Protocol data (docs/PROTOCOLS.md §e.1, §e.6): LongBench v1's per-dataset prompts and generation limits, from
// THUDM/LongBench@2e00731 LongBench/config/dataset2prompt.json and dataset2maxlen.json, in upstream form
// ({context}, {input}). The upstream typo "asconcisely" in narrativeqa is kept on purpose.
import { UserError } from '../../harness/errors.js';

export const LONGBENCH_QA_DATASETS = [
  'hotpotqa',
  '2wikimqa',
  'musique',
  'narrativeqa',
  'qasper',
  'multifieldqa_en',
] as const;
export const LONGBENCH_SUM_DATASETS = ['gov_report', 'qmsum', 'multi_news'] as const;
export const LONGBENCH_DATASETS = [...LONGBENCH_QA_DATASETS, ...LONGBENCH_SUM_DATASETS] as const;

export type LongBenchDataset = (typeof LONGBENCH_DATASETS)[number];

const MULTI_DOC_QA =
  'Answer the question based on the given passages. Only give me the answer and do not output any other words.\n\nThe following are given passages.\n{context}\n\nAnswer the question based on the given passages. Only give me the answer and do not output any other words.\n\nQuestion: {input}\nAnswer:';

/** dataset2prompt.json entries for our datasets, verbatim. */
export const UPSTREAM_PROMPTS: Readonly<Record<LongBenchDataset, string>> = {
  narrativeqa:
    'You are given a story, which can be either a novel or a movie script, and a question. Answer the question asconcisely as you can, using a single phrase if possible. Do not provide any explanation.\n\nStory: {context}\n\nNow, answer the question based on the story asconcisely as you can, using a single phrase if possible. Do not provide any explanation.\n\nQuestion: {input}\n\nAnswer:',
  qasper:
    'You are given a scientific article and a question. Answer the question as concisely as you can, using a single phrase or sentence if possible. If the question cannot be answered based on the information in the article, write "unanswerable". If the question is a yes/no question, answer "yes", "no", or "unanswerable". Do not provide any explanation.\n\nArticle: {context}\n\n Answer the question based on the above article as concisely as you can, using a single phrase or sentence if possible. If the question cannot be answered based on the information in the article, write "unanswerable". If the question is a yes/no question, answer "yes", "no", or "unanswerable". Do not provide any explanation.\n\nQuestion: {input}\n\nAnswer:',
  multifieldqa_en:
    'Read the following text and answer briefly.\n\n{context}\n\nNow, answer the following question based on the above text, only give me the answer and do not output any other words.\n\nQuestion: {input}\nAnswer:',
  hotpotqa: MULTI_DOC_QA,
  '2wikimqa': MULTI_DOC_QA,
  musique: MULTI_DOC_QA,
  gov_report:
    'You are given a report by a government agency. Write a one-page summary of the report.\n\nReport:\n{context}\n\nNow, write a one-page summary of the report.\n\nSummary:',
  qmsum:
    'You are given a meeting transcript and a query containing a question or instruction. Answer the query in one or more sentences.\n\nTranscript:\n{context}\n\nNow, answer the query based on the above meeting transcript in one or more sentences.\n\nQuery: {input}\nAnswer:',
  multi_news:
    'You are given several news passages. Write a one-page summary of all news. \n\nNews:\n{context}\n\nNow, write a one-page summary of all the news.\n\nSummary:',
};

/** dataset2maxlen.json entries for our datasets: max new tokens of the answer. */
export const MAX_NEW_TOKENS: Readonly<Record<LongBenchDataset, number>> = {
  narrativeqa: 128,
  qasper: 128,
  multifieldqa_en: 64,
  hotpotqa: 32,
  '2wikimqa': 32,
  musique: 32,
  gov_report: 512,
  qmsum: 512,
  multi_news: 512,
};

export function isLongBenchDataset(name: string): name is LongBenchDataset {
  return (LONGBENCH_DATASETS as readonly string[]).includes(name);
}

function known(dataset: string): LongBenchDataset {
  if (!isLongBenchDataset(dataset))
    throw new UserError(`no LongBench prompt for dataset '${dataset}'; supported: ${LONGBENCH_DATASETS.join(', ')}`);
  return dataset;
}

/** The dataset's prompt in our placeholder names ({context}, {question}), for PromptSpec.fullContext. */
export function fullContextTemplate(dataset: string): string {
  return UPSTREAM_PROMPTS[known(dataset)].replace(/\{input\}/g, () => '{question}');
}

export function maxNewTokens(dataset: string): number {
  return MAX_NEW_TOKENS[known(dataset)];
}

/** The template's opening paragraph, e.g. "You are given a report ... Write a one-page summary of the report.":
 *  the problem statement MemAgent sees for rows without a question (pure summarisation). */
export function instructionOf(dataset: string): string {
  return UPSTREAM_PROMPTS[known(dataset)].split('\n\n')[0].trim();
}
