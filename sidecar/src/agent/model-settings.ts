/** Everything a turn needs to call the model, with environment overrides applied. */
export interface ModelSettings {
  configId: string | null;
  name: string;
  model: string;
  baseUrl: string;
  apiKey: string;
  contextWindow: number;
  maxTokens: number;
  thinkingBudget: number | null;
  /** The fraction of the usable window at which compaction starts; null turns automatic compaction off. */
  compactThreshold: number | null;
}

/**
 * Where the loop gets the settings of the model a turn uses (the active config with the environment's
 * overrides); the application layer implements it, since configs and keys are its business.
 */
export type ModelSettingsSource = () => Promise<ModelSettings>;
