export interface Agent { ua: string; weight: number; device: "desktop" | "mobile"; }
export declare const agents: Agent[];
export declare function randomUserAgent(filter?: "desktop" | "mobile"): string;
export default randomUserAgent;
