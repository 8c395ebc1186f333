// The built-in model list per provider: the default model when none is given, and display labels.
// A model id that is not listed is still accepted (providers add models all the time); its
// label is then null.
import type { Provider } from '../../adapters/llm/types.ts';

export interface ModelInfo {
  id: string;
  label: string;
}

export const MODELS: Record<Provider, ModelInfo[]> = {
  vendor_a: [
    { id: 'gpt-4o-mini', label: 'GPT-4o mini' },
    { id: 'gpt-4o', label: 'GPT-4o' },
    { id: 'gpt-4.1', label: 'GPT-4.1' },
    { id: 'gpt-4.1-mini', label: 'GPT-4.1 mini' },
    { id: 'gpt-4.1-nano', label: 'GPT-4.1 nano' },
    { id: 'o4-mini', label: 'o4-mini' },
  ],
  vendor_b: [
    { id: 'claude-3-5-haiku-latest', label: 'Claude 3.5 Haiku' },
    { id: 'claude-3-7-sonnet-latest', label: 'Claude 3.7 Sonnet' },
    { id: 'claude-sonnet-4-20250514', label: 'Claude Sonnet 4' },
    { id: 'claude-opus-4-20250514', label: 'Claude Opus 4' },
  ],
  vendor_c: [
    { id: 'gemini-2.0-flash', label: 'Gemini 2.0 Flash' },
    { id: 'gemini-2.0-flash-lite', label: 'Gemini 2.0 Flash-Lite' },
    { id: 'gemini-2.5-flash', label: 'Gemini 2.5 Flash' },
    { id: 'gemini-2.5-pro', label: 'Gemini 2.5 Pro' },
  ],
  router: [
    { id: 'openai/gpt-4o-mini', label: 'GPT-4o mini (via router)' },
    { id: 'anthropic/claude-3.5-haiku', label: 'Claude 3.5 Haiku (via router)' },
    { id: 'google/gemini-2.0-flash-001', label: 'Gemini 2.0 Flash (via router)' },
    { id: 'meta-llama/llama-3.3-70b-instruct', label: 'Llama 3.3 70B Instruct (via router)' },
    { id: 'mistralai/mistral-small-3.1-24b-instruct', label: 'Mistral Small 3.1 (via router)' },
  ],
  // Any OpenAI-compatible endpoint: its models are whatever it serves, so nothing is assumed.
  custom: [],
};

/** The first listed model; custom has none, so its model must be given. */
export function defaultModel(provider: Provider): string | undefined {
  return MODELS[provider][0]?.id;
}

export function modelLabel(provider: Provider, model: string | null): string | null {
  if (!model) return null;
  return MODELS[provider].find((m) => m.id === model)?.label ?? null;
}
