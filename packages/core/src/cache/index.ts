export {
  type Kept,
  type Shared,
  SharedCache,
  type SharedCacheOptions,
  type SharedLoadOptions,
} from './shared-cache.js';
