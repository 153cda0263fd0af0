/** Answers of the pins-and-folders routes (docs/api.md "Pins and folders"). */
package dev.agentbus.api.organising;
