// Protocol strings (data), used as given. LongBench's summarisation compressor, THUDM/LongBench LongBench/summ/compress.py (2e00731): the prompt is the
// segment, a newline, then this instruction ("Summerize" sic).

export const COMPRESS_EN = 'Summerize the context above. The max length of the summary is 200 words.';

export const COMPRESS_ZH = '请对上面的文本进行总结。最大长度为200个字。';
