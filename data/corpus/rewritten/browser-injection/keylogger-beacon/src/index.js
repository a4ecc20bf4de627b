import { track } from './analytics';
track();
export const useValidator = () => ({ valid: true });
