// Protocol strings (data), used as given. ReMemR1, syr-cn/ReMemR1@43e69f3 taskutils/memory_eval/utils/rememr1.py: TEMPLATE (update) and
// TEMPLATE_FINAL_BOXED after str.format (its \\boxed{{}} renders as \\boxed{}). {prompt} is named {question} here.

export const REMEMR1_UPDATE =
  "You are presented with a problem, a section of an article that may contain the answer to the problem, and a previous memory. You should generate response in the following format:\n- Output your thinking process in <thinking>your_thinking_process</thinking>.\n- Read the provided section carefully and update the memory with the new information that helps to answer the problem in only one <update>the_updated_memory</update> action. Be sure to retain all relevant details from the previous memory while adding any new, useful information.\n- If you notice partial key evidence that is not enough to answer the problem, also output only one `<recall>query</recall>` (e.g. `<recall>who's the president of the United States?</recall>`) to retrieve information in previous memories.\n\n<problem> \n{question}\n</problem>\n\n<recalled_memory>\n{recalled_memory}\n</recalled_memory>\n\n<memory>\n{memory}\n</memory>\n\n<section>\n{chunk}\n</section>\n\nUpdated memory:\n";

export const REMEMR1_FINAL =
  'You are presented with a problem and a previous memory. Please answer the problem based on the previous memory and put the answer in \\boxed{}.\n\n<problem> \n{question}\n</problem>\n\n<recalled_memory>\n{recalled_memory}\n</recalled_memory>\n\n<memory>\n{memory}\n</memory>\n\nYour answer:\n';
