// Protocol data (docs/PROTOCOLS.md §e.1, §e.6, §e.7): LongBench v1's per-dataset prompts and generation limits for all
// 21 datasets, from THUDM/LongBench@2e00731 LongBench/config/dataset2prompt.json and dataset2maxlen.json, in upstream
// form ({context}, {input}). The upstream typo "asconcisely" in narrativeqa is kept on purpose.
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
/** LongBench's Chinese datasets (single-doc QA, multi-doc QA, summarisation, few-shot, synthetic). */
export const LONGBENCH_ZH_DATASETS = ['multifieldqa_zh', 'dureader', 'vcsum', 'lsht', 'passage_retrieval_zh'] as const;
/** Few-shot learning (English): classification, QA and dialogue summaries from in-context examples. */
export const LONGBENCH_FEWSHOT_DATASETS = ['trec', 'triviaqa', 'samsum'] as const;
/** Synthetic tasks (English): counting distinct paragraphs, finding the paragraph an abstract summarises. */
export const LONGBENCH_SYNTHETIC_DATASETS = ['passage_count', 'passage_retrieval_en'] as const;
/** Code completion: the next line of code. */
export const LONGBENCH_CODE_DATASETS = ['lcc', 'repobench-p'] as const;
export const LONGBENCH_DATASETS = [
  ...LONGBENCH_QA_DATASETS,
  ...LONGBENCH_SUM_DATASETS,
  ...LONGBENCH_ZH_DATASETS,
  ...LONGBENCH_FEWSHOT_DATASETS,
  ...LONGBENCH_SYNTHETIC_DATASETS,
  ...LONGBENCH_CODE_DATASETS,
] as const;

/** LongBench-E's 13 datasets (`<dataset>_e.jsonl`): English only, same prompts, limits and metrics as v1. */
export const LONGBENCH_E_DATASETS = [
  'qasper',
  'multifieldqa_en',
  'hotpotqa',
  '2wikimqa',
  'gov_report',
  'multi_news',
  'trec',
  'triviaqa',
  'samsum',
  'passage_count',
  'passage_retrieval_en',
  'lcc',
  'repobench-p',
] as const;

/** pred.py sends these prompts without the model's chat template (every other dataset gets it). */
export const LONGBENCH_NO_CHAT_TEMPLATE: ReadonlySet<string> = new Set([
  'trec',
  'triviaqa',
  'samsum',
  'lsht',
  'lcc',
  'repobench-p',
]);

export type LongBenchDataset = (typeof LONGBENCH_DATASETS)[number];

const MULTI_DOC_QA =
  'Answer the question based on the given passages. Only give me the answer and do not output any other words.\n\nThe following are given passages.\n{context}\n\nAnswer the question based on the given passages. Only give me the answer and do not output any other words.\n\nQuestion: {input}\nAnswer:';

/** dataset2prompt.json, verbatim. */
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
  multifieldqa_zh:
    '阅读以下文字并用中文简短回答：\n\n{context}\n\n现在请基于上面的文章回答下面的问题，只告诉我答案，不要输出任何其他字词。\n\n问题：{input}\n回答：',
  dureader:
    '请基于给定的文章回答下述问题。\n\n文章：{context}\n\n请基于上述文章回答下面的问题。\n\n问题：{input}\n回答：',
  vcsum: '下面有一段会议记录，请你阅读后，写一段总结，总结会议的内容。\n会议记录：\n{context}\n\n会议总结：',
  lsht: '请判断给定新闻的类别，下面是一些例子。\n\n{context}\n{input}',
  passage_retrieval_zh:
    '以下是若干段落文字，以及其中一个段落的摘要。请确定给定的摘要出自哪一段。\n\n{context}\n\n下面是一个摘要\n\n{input}\n\n请输入摘要所属段落的编号。答案格式必须是"段落1"，"段落2"等格式\n\n答案是：',
  trec: 'Please determine the type of the question below. Here are some examples of questions.\n\n{context}\n{input}',
  triviaqa:
    'Answer the question based on the given passage. Only give me the answer and do not output any other words. The following are some examples.\n\n{context}\n\n{input}',
  samsum: 'Summarize the dialogue into a few short sentences. The following are some examples.\n\n{context}\n\n{input}',
  passage_count:
    'There are some paragraphs below sourced from Wikipedia. Some of them may be duplicates. Please carefully read these paragraphs and determine how many unique paragraphs there are after removing duplicates. In other words, how many non-repeating paragraphs are there in total?\n\n{context}\n\nPlease enter the final count of unique paragraphs after removing duplicates. The output format should only contain the number, such as 1, 2, 3, and so on.\n\nThe final answer is: ',
  passage_retrieval_en:
    'Here are 30 paragraphs from Wikipedia, along with an abstract. Please determine which paragraph the abstract is from.\n\n{context}\n\nThe following is an abstract.\n\n{input}\n\nPlease enter the number of the paragraph that the abstract is from. The answer format must be like "Paragraph 1", "Paragraph 2", etc.\n\nThe answer is: ',
  lcc: 'Please complete the code given below. \n{context}Next line of code:\n',
  'repobench-p': 'Please complete the code given below. \n{context}{input}Next line of code:\n',
};

/** dataset2maxlen.json: max new tokens of the answer. */
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
  multifieldqa_zh: 64,
  dureader: 128,
  vcsum: 512,
  lsht: 64,
  passage_retrieval_zh: 32,
  trec: 64,
  triviaqa: 32,
  samsum: 128,
  passage_count: 32,
  passage_retrieval_en: 32,
  lcc: 64,
  'repobench-p': 64,
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

/** The template's opening paragraph (up to the first blank line or {context}), e.g. "You are given a report ... Write a
 *  one-page summary of the report.": the problem statement MemAgent sees for rows without a question (summaries,
 *  passage_count, lcc). */
export function instructionOf(dataset: string): string {
  return UPSTREAM_PROMPTS[known(dataset)].split('\n\n')[0].split('{context}')[0].trim();
}
