/**
 * The copy itself: listing the source, cutting files into block-aligned chunks, handing chunks
 * from one queue to whichever route is free, staging, verification and commit, and what each
 * route carried. Also what a plan needs to know of the clusters ({@link
 * dev.relaycp.transfer.ClusterSurvey}) and the measurement of relay pairs ({@link
 * dev.relaycp.transfer.RelayProbe}). Reports through return values and a progress listener;
 * prints nothing.
 */
package dev.relaycp.transfer;
