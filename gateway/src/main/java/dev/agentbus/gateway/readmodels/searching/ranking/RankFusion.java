package dev.agentbus.gateway.readmodels.searching.ranking;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009): each list gives an item {@code 1 / (k + rank)}
 * (rank from 1), and the item's score is the sum over the lists it is in. Only ranks count, not the lists' own
 * scores, which is why it suits hybrid search: {@code ts_rank} and cosine similarity are on scales that cannot be
 * compared or added, but "third in full-text, first by meaning" can.
 *
 * <p>{@link #K} = 60 is the paper's constant: large enough that being first in one list does not outweigh being
 * near the top of both.
 */
public final class RankFusion {
    public static final int K = 60;

    /** One fused item, with the score that placed it. */
    public record Fused<T>(T item, double score) {
    }

    private RankFusion() {
    }

    /**
     * The items of all lists, best first by fused score; ties keep the order in which the items were first met
     * (earlier lists first), so equal evidence favours the first list. Items are matched by {@code equals}.
     */
    @SafeVarargs
    public static <T> List<Fused<T>> fuse(List<T>... rankings) {
        return fuse(K, List.of(rankings));
    }

    public static <T> List<Fused<T>> fuse(int k, List<List<T>> rankings) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1, was " + k);
        }
        Map<T, Double> scores = new LinkedHashMap<>();
        for (List<T> ranking : rankings) {
            for (int i = 0; i < ranking.size(); i++) {
                scores.merge(ranking.get(i), 1.0 / (k + i + 1), Double::sum);
            }
        }
        List<Fused<T>> out = new ArrayList<>();
        scores.forEach((item, score) -> out.add(new Fused<>(item, score)));
        // A stable sort: equal scores stay in first-met order.
        out.sort(Comparator.comparingDouble((Fused<T> f) -> f.score()).reversed());
        return out;
    }
}
