package dev.agentbus.gateway.readmodels.searching.ranking;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Embedding vectors as the search stores and compares them: float32, L2-normalised once when they arrive, so that
 * cosine similarity is a plain dot product at query time. Stored as little-endian bytes ({@code bytea}): four bytes
 * a dimension, no per-element overhead as a {@code real[]} would have, and read straight into a float array.
 */
public final class Vectors {
    private Vectors() {
    }

    /** {@code v} scaled to length 1; a zero vector stays zero (it is then similar to nothing). */
    public static float[] normalised(float[] v) {
        double sum = 0;
        for (float x : v) {
            sum += (double) x * x;
        }
        float[] out = v.clone();
        if (sum == 0) {
            return out;
        }
        float scale = (float) (1 / Math.sqrt(sum));
        for (int i = 0; i < out.length; i++) {
            out[i] *= scale;
        }
        return out;
    }

    /**
     * The dot product, which is the cosine for normalised vectors. Vectors of different lengths come from different
     * models and have no similarity: 0, rather than an exception in the middle of a search.
     */
    public static float dot(float[] a, float[] b) {
        if (a.length != b.length) {
            return 0;
        }
        float sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    /** Cosine similarity of any two vectors (normalised or not), 0 when either is zero. */
    public static double cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            return 0;
        }
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    public static byte[] toBytes(float[] v) {
        ByteBuffer buffer = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asFloatBuffer().put(v);
        return buffer.array();
    }

    public static float[] fromBytes(byte[] bytes) {
        if (bytes.length % Float.BYTES != 0) {
            throw new IllegalArgumentException("a vector is 4 bytes a dimension; " + bytes.length + " bytes is not");
        }
        float[] v = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }
}
