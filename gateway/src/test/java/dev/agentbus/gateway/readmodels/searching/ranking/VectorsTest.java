package dev.agentbus.gateway.readmodels.searching.ranking;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class VectorsTest {
    @Test
    void a_normalised_vector_has_length_one_and_its_dot_product_is_the_cosine() {
        // given
        float[] a = {3, 4};
        float[] b = {4, 3};

        // when
        float[] na = Vectors.normalised(a);
        float[] nb = Vectors.normalised(b);

        // then
        assertThat(Vectors.dot(na, na)).isCloseTo(1f, within(1e-6f));
        assertThat((double) Vectors.dot(na, nb)).isCloseTo(Vectors.cosine(a, b), within(1e-6));
        assertThat(Vectors.cosine(a, b)).isCloseTo(24.0 / 25, within(1e-9));
        assertThat(a).containsExactly(3, 4); // the input is left alone
    }

    @Test
    void zero_vectors_and_vectors_of_other_models_are_similar_to_nothing() {
        assertThat(Vectors.normalised(new float[] {0, 0})).containsExactly(0, 0);
        assertThat(Vectors.cosine(new float[] {0, 0}, new float[] {1, 0})).isZero();
        assertThat(Vectors.dot(new float[] {1, 0}, new float[] {1, 0, 0})).isZero();
        assertThat(Vectors.cosine(new float[] {1, 0}, new float[] {1, 0, 0})).isZero();
    }

    @Test
    void vectors_survive_the_trip_through_bytes() {
        float[] v = {0.5f, -1.25f, Float.MIN_VALUE, 3.0e-7f};

        byte[] bytes = Vectors.toBytes(v);

        assertThat(bytes).hasSize(16);
        assertThat(Vectors.fromBytes(bytes)).containsExactly(v);
        assertThatThrownBy(() -> Vectors.fromBytes(new byte[5])).hasMessageContaining("4 bytes a dimension");
    }
}
