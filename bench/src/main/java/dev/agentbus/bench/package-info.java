/**
 * Benchmarks behind docs/benchmarks.md, one package per area ({@code sandboxes}, {@code replay}, {@code projections}).
 * Each is a main class run by {@code bin/bench <ClassName>}; it warms up, measures, and prints medians and ratios
 * from one run, because these machines are noisy and only numbers taken side by side compare.
 */
package dev.agentbus.bench;
