package dev.agentbus.testkit.model;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * The scripted model server's embedding: a deterministic stand-in for an embedding model, so that tests and the
 * search benchmark get vectors in which related texts land near each other without loading any weights.
 *
 * <p>It is feature hashing ("the hashing trick") over two kinds of features of the lower-cased text, each hashed with
 * FNV-1a to one of {@link #DIMENSIONS} signed buckets:
 * <ul>
 *   <li>every word that is not a stop word, lightly stemmed (plural {@code s}, {@code ing}, {@code ed}), weight 1;
 *   <li>every character trigram of every such word, padded ({@code "#deploy#"}), weight 0.5, so that word forms
 *       and compounds share features: "deploy", "deploying", "deployment" and "redeploy" are close.
 * </ul>
 * The vector is L2-normalised, so a dot product is the cosine. It knows no synonyms: "car" and "automobile" are as
 * far apart as any two unrelated words. That is honest for a test double, and it is what docs/benchmarks.md says
 * about the recall it measures: numbers about this embedding, not about a real model.
 */
public final class HashedEmbedding {
    /** Small enough to keep fixtures light, large enough that unrelated texts rarely share a bucket. */
    public static final int DIMENSIONS = 256;

    private static final Set<String> STOP_WORDS = Set.of("a", "an", "the", "and", "or", "but", "of", "to", "in",
            "on", "at", "for", "with", "by", "from", "is", "are", "was", "were", "be", "been", "it", "its", "this",
            "that", "these", "those", "i", "you", "we", "they", "he", "she", "me", "my", "our", "your", "their", "do",
            "does", "did", "how", "what", "which", "who", "when", "where", "why", "can", "could", "should", "would",
            "will", "about", "as", "so", "if", "not", "no", "there", "here", "have", "has", "had", "into", "up", "out");

    private HashedEmbedding() {
    }

    /** The embedding of {@code text}: {@link #DIMENSIONS} floats of length 1, or all zeros for a text of no words. */
    public static float[] embed(String text) {
        float[] v = new float[DIMENSIONS];
        for (String raw : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (raw.isEmpty() || STOP_WORDS.contains(raw)) {
                continue;
            }
            String word = stem(raw);
            add(v, "w:" + word, 1f);
            String padded = "#" + word + "#";
            for (int i = 0; i + 3 <= padded.length(); i++) {
                add(v, "g:" + padded.substring(i, i + 3), 0.5f);
            }
        }
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        if (norm > 0) {
            float scale = (float) (1 / Math.sqrt(norm));
            for (int i = 0; i < v.length; i++) {
                v[i] *= scale;
            }
        }
        return v;
    }

    private static String stem(String word) {
        if (word.length() > 5 && word.endsWith("ing")) {
            return word.substring(0, word.length() - 3);
        }
        if (word.length() > 4 && word.endsWith("ed")) {
            return word.substring(0, word.length() - 2);
        }
        if (word.length() > 3 && word.endsWith("s") && !word.endsWith("ss")) {
            return word.substring(0, word.length() - 1);
        }
        return word;
    }

    private static void add(float[] v, String feature, float weight) {
        int h = fnv1a(feature);
        // One bit of the hash gives the sign, so collisions cancel out on average instead of piling up.
        v[Math.floorMod(h, DIMENSIONS)] += (h & 0x4000_0000) == 0 ? weight : -weight;
    }

    private static int fnv1a(String s) {
        int h = 0x811c9dc5;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x01000193;
        }
        return h;
    }
}
