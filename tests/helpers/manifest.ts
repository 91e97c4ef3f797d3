import type { RunManifest } from '../../harness/run-dir/manifest.js';

type Overrides = Partial<Omit<RunManifest, 'model'>> & { model?: Partial<RunManifest['model']> } & Record<
    string,
    unknown
  >;

/** A complete manifest.json as `bench run` writes it (one task, local model), with fields overridden. */
export function manifestFixture(over: Overrides = {}): RunManifest & Record<string, unknown> {
  const { model, ...rest } = over;
  return {
    command: 'bench run ruler-hqa --lengths 8k',
    tasks: [{ name: 'ruler-hqa', version: '1', metric: 'sub_em' }],
    methods: ['memagent'],
    lengths: { 'ruler-hqa': ['8k'] },
    samples: null,
    seed: 42,
    tokenizer: 'qwen2.5',
    settings: {
      'chunk-tokens': 5000,
      'memory-tokens': 1024,
      'max-context': 120000,
      temperature: 0.7,
      'top-p': 0.95,
      final: 'phrase',
      concurrency: 8,
    },
    shard: null,
    identity: {
      seed: 42,
      tokenizer: 'qwen2.5',
      model: 'local:reference-reader',
      trial: 0,
      options: {},
      methods: {
        memagent: {
          'chunk-tokens': 5000,
          'memory-tokens': 1024,
          temperature: 0.7,
          'top-p': 0.95,
          final: 'phrase',
          templates: 'memagent-phrase:0',
        },
      },
    },
    environment: {
      memagent_bench: '0.1.0',
      node: 'v20.19.0',
      platform: 'linux-x64',
      packages: { openai: '6.30.1', tiktoken: '1.0.22' },
      git: { commit: null, dirty: null },
    },
    units: 1,
    resumed: 0,
    ...rest,
    model: {
      id: 'local:reference-reader',
      client: 'local:reference-reader',
      name: null,
      isReferenceReader: true,
      endpoints: [],
      ...model,
    },
  } as RunManifest & Record<string, unknown>;
}
