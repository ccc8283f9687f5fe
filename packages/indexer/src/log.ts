// The logger's home is @explorer/core (the server and the indexer both write to it); kept here so existing
// imports from @explorer/indexer keep working.
export { type Logger, silentLogger } from '@explorer/core';
