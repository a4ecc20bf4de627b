export interface FlagSet {
    [key: string]: boolean | string | number;
}
export declare function isEnabled(flags: FlagSet, key: string, fallback?: boolean): boolean;
