package dev.agentbus.gateway.readmodels.searching.ranking;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class RankFusionTest {
    @Test
    void an_item_near_the_top_of_both_lists_beats_one_that_is_first_in_only_one() {
        // given: "b" is second in both lists, "a" first by words only, "c" first by meaning only
        List<String> text = List.of("a", "b");
        List<String> semantic = List.of("c", "b");

        // when
        List<RankFusion.Fused<String>> fused = RankFusion.fuse(text, semantic);

        // then
        assertThat(fused).extracting(RankFusion.Fused::item).containsExactly("b", "a", "c");
        assertThat(fused.getFirst().score()).isCloseTo(2.0 / 62, within(1e-12));
        assertThat(fused.get(1).score()).isCloseTo(1.0 / 61, within(1e-12));
    }

    @Test
    void equal_scores_keep_the_first_lists_order() {
        // given: each list has one item at rank 1
        // when
        List<RankFusion.Fused<String>> fused = RankFusion.fuse(List.of("words"), List.of("meaning"));

        // then: a tie, and the first list's item comes first
        assertThat(fused).extracting(RankFusion.Fused::item).containsExactly("words", "meaning");
        assertThat(fused.get(0).score()).isEqualTo(fused.get(1).score());
    }

    @Test
    void only_ranks_count_so_one_list_alone_keeps_its_order() {
        List<RankFusion.Fused<Integer>> fused = RankFusion.fuse(List.of(3, 1, 2), List.of());

        assertThat(fused).extracting(RankFusion.Fused::item).containsExactly(3, 1, 2);
    }

    @Test
    void empty_lists_fuse_to_nothing_and_k_must_be_positive() {
        assertThat(RankFusion.fuse(List.<String>of(), List.of())).isEmpty();
        assertThatThrownBy(() -> RankFusion.fuse(0, List.of(List.of("a"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k must be at least 1");
    }
}
