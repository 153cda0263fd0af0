package dev.agentbus.events.state;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fold's structurally shared collections: each value stays as it was, whatever is made from it later. */
class PersistentCollectionsTest {

    // ---- AppendOnlyList ---------------------------------------------------------------------------------------------

    @Test
    void appending_leaves_the_list_it_started_from_unchanged() {
        AppendOnlyList<String> ab = AppendOnlyList.<String>empty().plus("a").plus("b");

        AppendOnlyList<String> abc = ab.plus("c");

        assertThat(ab).containsExactly("a", "b");
        assertThat(abc).containsExactly("a", "b", "c");
    }

    @Test
    void appending_twice_to_the_same_list_gives_two_independent_branches() {
        AppendOnlyList<String> ab = AppendOnlyList.<String>empty().plus("a").plus("b");

        AppendOnlyList<String> abc = ab.plus("c");
        AppendOnlyList<String> abx = ab.plus("x");
        AppendOnlyList<String> abcd = abc.plus("d");
        AppendOnlyList<String> abxy = abx.plus("y");

        assertThat(abc).containsExactly("a", "b", "c");
        assertThat(abx).containsExactly("a", "b", "x");
        assertThat(abcd).containsExactly("a", "b", "c", "d");
        assertThat(abxy).containsExactly("a", "b", "x", "y");
        assertThat(ab).containsExactly("a", "b");
    }

    @Test
    void lists_made_before_the_shared_array_grew_keep_their_elements() {
        List<AppendOnlyList<Integer>> every = new ArrayList<>();
        AppendOnlyList<Integer> list = AppendOnlyList.empty();
        for (int i = 0; i < 1000; i++) {
            list = list.plus(i);
            every.add(list);
        }

        for (int n = 0; n < every.size(); n++) {
            AppendOnlyList<Integer> prefix = every.get(n);
            assertThat(prefix).hasSize(n + 1);
            assertThat(prefix.getLast()).isEqualTo(n);
            assertThat(prefix.getFirst()).isZero();
        }
    }

    @Test
    void a_list_equals_any_list_with_the_same_elements() {
        AppendOnlyList<String> folded = AppendOnlyList.<String>empty().plus("a").plus("b");

        assertThat(folded).isEqualTo(List.of("a", "b"));
        assertThat(List.of("a", "b")).isEqualTo(folded);
        assertThat(folded.hashCode()).isEqualTo(List.of("a", "b").hashCode());
        assertThat(AppendOnlyList.copyOf(List.of("a", "b"))).isEqualTo(folded);
        assertThat(folded).isNotEqualTo(folded.plus("c"));
    }

    @Test
    void a_list_refuses_changes_and_nulls() {
        AppendOnlyList<String> list = AppendOnlyList.<String>empty().plus("a");

        assertThatThrownBy(() -> list.add("b")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> list.set(0, "b")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> list.remove(0)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(list::clear).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> list.plus(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> AppendOnlyList.copyOf(java.util.Arrays.asList("a", null)))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> list.get(1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void branches_appended_from_many_threads_at_once_each_see_only_their_own_elements() throws Exception {
        AppendOnlyList<String> base = AppendOnlyList.<String>empty().plus("base");
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            List<Future<AppendOnlyList<String>>> branches = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                String name = "t" + t;
                branches.add(threads.submit(() -> {
                    AppendOnlyList<String> mine = base;
                    for (int i = 0; i < 2000; i++) {
                        mine = mine.plus(name + "-" + i);
                    }
                    return mine;
                }));
            }
            for (int t = 0; t < 8; t++) {
                AppendOnlyList<String> mine = branches.get(t).get();
                assertThat(mine).hasSize(2001);
                assertThat(mine.getFirst()).isEqualTo("base");
                for (int i = 0; i < 2000; i++) {
                    assertThat(mine.get(i + 1)).isEqualTo("t" + t + "-" + i);
                }
            }
        }
        assertThat(base).containsExactly("base");
    }

    // ---- InsertionOrderedMap ---------------------------------------------------------------------------------------

    @Test
    void a_map_iterates_in_insertion_order_and_a_replaced_value_keeps_its_place() {
        InsertionOrderedMap<String, Integer> map = InsertionOrderedMap.<String, Integer>empty()
                .plus("zulu", 1).plus("alpha", 2).plus("mike", 3);

        InsertionOrderedMap<String, Integer> changed = map.plus("zulu", 10);

        assertThat(changed.keySet()).containsExactly("zulu", "alpha", "mike");
        assertThat(changed.values()).containsExactly(10, 2, 3);
        assertThat(map.values()).as("the map it came from").containsExactly(1, 2, 3);
    }

    @Test
    void a_key_added_later_is_invisible_to_the_maps_made_before() {
        InsertionOrderedMap<String, Integer> one = InsertionOrderedMap.<String, Integer>empty().plus("a", 1);

        InsertionOrderedMap<String, Integer> two = one.plus("b", 2);

        assertThat(one.containsKey("b")).isFalse();
        assertThat(one.get("b")).isNull();
        assertThat(one).hasSize(1);
        assertThat(two.get("b")).isEqualTo(2);
    }

    @Test
    void adding_different_keys_to_the_same_map_gives_two_independent_branches() {
        InsertionOrderedMap<String, Integer> base = InsertionOrderedMap.<String, Integer>empty().plus("a", 1);

        InsertionOrderedMap<String, Integer> withB = base.plus("b", 2);
        InsertionOrderedMap<String, Integer> withC = base.plus("c", 3);
        InsertionOrderedMap<String, Integer> withCB = withC.plus("b", 20);

        assertThat(withB).containsExactly(Map.entry("a", 1), Map.entry("b", 2));
        assertThat(withC).containsExactly(Map.entry("a", 1), Map.entry("c", 3));
        assertThat(withC.containsKey("b")).isFalse();
        assertThat(withCB).containsExactly(Map.entry("a", 1), Map.entry("c", 3), Map.entry("b", 20));
        assertThat(withB.get("b")).isEqualTo(2);
        assertThat(base).containsExactly(Map.entry("a", 1));
    }

    @Test
    void every_version_of_a_large_map_keeps_its_values() {
        List<InsertionOrderedMap<Integer, String>> versions = new ArrayList<>();
        InsertionOrderedMap<Integer, String> map = InsertionOrderedMap.empty();
        for (int i = 0; i < 40_000; i++) {
            map = map.plus(i, "proposed");
            map = map.plus(i, "done " + i);
            if (i % 997 == 0) {
                versions.add(map);
            }
        }

        assertThat(map).hasSize(40_000);
        assertThat(map.get(39_999)).isEqualTo("done 39999");
        assertThat(map.keySet()).first().isEqualTo(0);
        for (InsertionOrderedMap<Integer, String> v : versions) {
            int last = v.size() - 1;
            assertThat(v.get(last)).isEqualTo("done " + last);
            assertThat(v.get(last + 1)).isNull();
        }
    }

    @Test
    void a_map_equals_a_linked_hash_map_with_the_same_entries() {
        InsertionOrderedMap<String, Integer> map = InsertionOrderedMap.<String, Integer>empty().plus("a", 1).plus("b", 2);
        Map<String, Integer> plain = new LinkedHashMap<>();
        plain.put("a", 1);
        plain.put("b", 2);

        assertThat(map).isEqualTo(plain);
        assertThat(plain).isEqualTo(map);
        assertThat(map.hashCode()).isEqualTo(plain.hashCode());
        assertThat(InsertionOrderedMap.copyOf(plain)).isEqualTo(map);
        assertThat(InsertionOrderedMap.copyOf(plain).keySet()).containsExactly("a", "b");
    }

    @Test
    void a_map_refuses_every_change() {
        InsertionOrderedMap<String, Integer> map = InsertionOrderedMap.<String, Integer>empty().plus("a", 1);

        assertThatThrownBy(() -> map.put("b", 2)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> map.remove("a")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> map.remove("absent")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(map::clear).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> map.computeIfPresent("a", (k, v) -> v + 1))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> map.entrySet().iterator().next().setValue(5))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> map.keySet().remove("a")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(map).containsExactly(Map.entry("a", 1));
    }
}
