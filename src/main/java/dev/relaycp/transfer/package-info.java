/**
 * The copy itself: listing the source, cutting files into block-aligned chunks, handing chunks
 * from one queue to whichever route is free, staging, verification and commit. Reports through
 * return values and a progress listener; prints nothing.
 */
package dev.relaycp.transfer;
