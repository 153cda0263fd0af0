/** Answers of the share-link routes (docs/api.md "Share links and Markdown export"). */
package dev.agentbus.api.sharing;
