// Types for scripts/check-install-scripts.mjs, which its test imports.
export declare const FIRST_NPM_WITH_ALLOW_SCRIPTS: string;
export declare function npmListsPendingScripts(version: string): boolean;
export declare function checkInstallScripts(dir: string): { code: 0 | 1; text: string };
