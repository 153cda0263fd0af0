/**
 * The answers of the accounts API (docs/api.md, "Accounts"): who the caller is, logins, API keys, invites, two-factor
 * enrolment, users, groups and the account audit. Records the gateway writes and clients read; never the gateway's
 * own rows, so a column can change without changing the API.
 */
package dev.agentbus.api.accounts;
