package dev.agentbus.gateway.readmodels.searching.ranking;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Exact k-nearest-neighbour search by brute force: every candidate's dot product with the query, the best {@code k}
 * kept in a small heap. Linear in the number of vectors and exact (recall 1 by construction); docs/memory.md says
 * up to what size that is fast enough and why it was chosen over an approximate index.
 */
public final class NearestVectors {
    /** One candidate: a key the caller knows it by, and its normalised vector. */
    public record Candidate<K>(K key, float[] vector) {
    }

    /** A result: the key and its cosine similarity with the query. */
    public record Scored<K>(K key, double similarity) {
    }

    private NearestVectors() {
    }

    /**
     * The {@code k} candidates most similar to {@code query} (both normalised), best first, leaving out those whose
     * similarity is not above {@code minSimilarity}. Ties keep the candidates' order.
     */
    public static <K> List<Scored<K>> top(float[] query, Iterable<Candidate<K>> candidates, int k,
                                          double minSimilarity) {
        if (k < 1) {
            return List.of();
        }
        record Entry<K>(K key, float score, long order) {
        }
        // The worst kept entry on top; among equal scores the later one counts as worse.
        PriorityQueue<Entry<K>> best = new PriorityQueue<>(k + 1, Comparator.<Entry<K>>comparingDouble(Entry::score)
                .thenComparing(Comparator.comparingLong((Entry<K> e) -> e.order()).reversed()));
        long order = 0;
        for (Candidate<K> c : candidates) {
            float score = Vectors.dot(query, c.vector());
            order++;
            if (score <= minSimilarity) {
                continue;
            }
            if (best.size() < k) {
                best.add(new Entry<>(c.key(), score, order));
            } else if (score > best.peek().score()) {
                best.poll();
                best.add(new Entry<>(c.key(), score, order));
            }
        }
        List<Entry<K>> sorted = new ArrayList<>(best);
        sorted.sort(Comparator.<Entry<K>>comparingDouble(Entry::score).reversed()
                .thenComparingLong(Entry::order));
        return sorted.stream().map(e -> new Scored<>(e.key(), e.score())).toList();
    }
}
