/**
 * relaycp's settings: each key with its type, default and least value in one place, read from
 * a Hadoop {@link org.apache.hadoop.conf.Configuration} so that a bad value is a user error
 * naming its key, never a NumberFormatException from deep inside a copy.
 */
package dev.relaycp.config;
