package dev.agentbus.gateway.readmodels.searching.ranking;

import dev.agentbus.gateway.readmodels.searching.ranking.NearestVectors.Candidate;
import dev.agentbus.gateway.readmodels.searching.ranking.NearestVectors.Scored;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class NearestVectorsTest {
    private static Candidate<String> c(String key, float... v) {
        return new Candidate<>(key, Vectors.normalised(v));
    }

    @Test
    void the_nearest_come_first_and_only_k_of_them() {
        // given
        List<Candidate<String>> candidates = List.of(c("east", 1, 0), c("north", 0, 1), c("north-east", 1, 1),
                c("west", -1, 0));

        // when
        List<Scored<String>> top = NearestVectors.top(Vectors.normalised(new float[] {1, 0.2f}), candidates, 2, -1);

        // then
        assertThat(top).extracting(Scored::key).containsExactly("east", "north-east");
        assertThat(top.getFirst().similarity()).isCloseTo(1 / Math.sqrt(1.04), within(1e-6));
    }

    @Test
    void candidates_not_above_the_minimum_similarity_are_left_out() {
        List<Candidate<String>> candidates = List.of(c("same", 1, 0), c("orthogonal", 0, 1), c("opposite", -1, 0));

        List<Scored<String>> top = NearestVectors.top(new float[] {1, 0}, candidates, 10, 0);

        assertThat(top).extracting(Scored::key).containsExactly("same");
    }

    @Test
    void ties_keep_the_candidates_order_and_k_below_one_finds_nothing() {
        List<Candidate<String>> candidates = List.of(c("first", 1, 0), c("second", 1, 0), c("third", 1, 0));

        assertThat(NearestVectors.top(new float[] {1, 0}, candidates, 2, -1)).extracting(Scored::key)
                .containsExactly("first", "second");
        assertThat(NearestVectors.top(new float[] {1, 0}, candidates, 0, -1)).isEmpty();
    }

    @Test
    void the_heap_finds_what_sorting_everything_finds() {
        // given: 2,000 random vectors
        Random random = new Random(7);
        List<Candidate<Integer>> candidates = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            float[] v = new float[16];
            for (int d = 0; d < v.length; d++) {
                v[d] = (float) random.nextGaussian();
            }
            candidates.add(new Candidate<>(i, Vectors.normalised(v)));
        }
        float[] query = candidates.get(42).vector();

        // when
        List<Scored<Integer>> top = NearestVectors.top(query, candidates, 10, -1);

        // then
        List<Integer> sorted = candidates.stream()
                .sorted(Comparator.comparingDouble((Candidate<Integer> c) -> -Vectors.dot(query, c.vector())))
                .limit(10).map(Candidate::key).toList();
        assertThat(top).extracting(Scored::key).containsExactlyElementsOf(sorted);
        assertThat(top.getFirst().key()).isEqualTo(42);
    }
}
