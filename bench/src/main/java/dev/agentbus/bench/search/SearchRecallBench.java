package dev.agentbus.bench.search;

import dev.agentbus.bench.Stats;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import dev.agentbus.gateway.readmodels.searching.MessageSearch;
import dev.agentbus.gateway.readmodels.searching.SemanticSearch;
import dev.agentbus.gateway.readmodels.searching.embedding.EmbeddingClient;
import dev.agentbus.gateway.readmodels.searching.embedding.MessageVectors;
import dev.agentbus.testkit.model.ScriptedModelServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Recall@10 of full-text, semantic and hybrid search on a labelled fixture ({@code search/fixture.txt}: 200 messages
 * in 20 topics, 40 queries, each query's relevant messages being its topic's ten), through the gateway's own search
 * code against a real PostgreSQL. The vectors come from the scripted model server's {@code /v1/embeddings}, i.e.
 * {@code HashedEmbedding} (hashed words and character trigrams), not from a trained model: the semantic numbers say
 * what the pipeline does with that embedding, and a real embedding model will do differently (usually better on
 * paraphrases, which hashing cannot see). Recall@10 with ten relevant messages is also precision@10.
 *
 * <p>Full-text search as text mode runs it ({@code websearch_to_tsquery}) wants every word of the query; the line
 * "text, any word" is the full-text list hybrid mode fuses ({@code MessageSearch.searchAnyWord}), which accepts any
 * of them: the fairer full-text baseline for questions typed in natural language.
 *
 * <p>{@code bin/bench SearchRecallBench [--verbose]}
 */
public final class SearchRecallBench {
    private static final String USER = "bench";
    private static final String MODEL = "scripted-hashed-embedding";
    private static final int K = 10;

    record Message(String topic, String text) {
    }

    record Query(String topic, String text) {
    }

    public static void main(String[] args) throws Exception {
        boolean verbose = List.of(args).contains("--verbose");
        List<Message> messages = new ArrayList<>();
        List<Query> queries = new ArrayList<>();
        load(messages, queries);
        Map<String, Integer> perTopic = new LinkedHashMap<>();
        messages.forEach(m -> perTopic.merge(m.topic(), 1, Integer::sum));
        System.out.println(Stats.machine());
        System.out.printf(Locale.ROOT, "fixture: %d messages in %d topics, %d labelled queries%n", messages.size(),
                perTopic.size(), queries.size());

        Path dir = Files.createTempDirectory("agentbus-bench-search");
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setDataDirectory(dir.resolve("postgres")).start();
             ReadModelDatabase database = ReadModelDatabase.connect(postgres.getJdbcUrl("postgres", "postgres"),
                     null, null);
             ScriptedModelServer server = ScriptedModelServer.start();
             EmbeddingClient client = new EmbeddingClient(server.baseUrl(), "", MODEL, Duration.ofSeconds(30))) {
            database.migrate();
            List<float[]> vectors = new ArrayList<>();
            for (int from = 0; from < messages.size(); from += 32) {
                vectors.addAll(client.embed(messages.subList(from, Math.min(messages.size(), from + 32)).stream()
                        .map(Message::text).toList()));
            }
            database.transaction(db -> {
                try (PreparedStatement s = db.prepareStatement("INSERT INTO messages (session_id, seq, user_id, "
                        + "role, time, text) VALUES (?, 1, ?, 'user', ?, ?)")) {
                    for (int i = 0; i < messages.size(); i++) {
                        s.setString(1, id(i, messages.get(i)));
                        s.setString(2, USER);
                        s.setObject(3, java.sql.Timestamp.from(Instant.parse("2026-11-25T00:00:00Z")
                                .plusSeconds(i)));
                        s.setString(4, messages.get(i).text());
                        s.addBatch();
                    }
                    s.executeBatch();
                }
                List<MessageVectors.Stored> rows = new ArrayList<>();
                for (int i = 0; i < messages.size(); i++) {
                    rows.add(new MessageVectors.Stored(new MessageVectors.Key(id(i, messages.get(i)), 1), USER,
                            vectors.get(i)));
                }
                MessageVectors.insert(db, MODEL, rows);
                return null;
            });

            Map<String, double[]> recall = new LinkedHashMap<>();
            Map<String, double[]> reciprocalRank = new LinkedHashMap<>();
            Map<String, int[]> empty = new LinkedHashMap<>();
            for (String mode : List.of("text", "text, any word", "semantic", "hybrid")) {
                recall.put(mode, new double[queries.size()]);
                reciprocalRank.put(mode, new double[queries.size()]);
                empty.put(mode, new int[1]);
            }
            for (int qi = 0; qi < queries.size(); qi++) {
                Query q = queries.get(qi);
                float[] qv = client.embed(List.of(q.text())).getFirst();
                Map<String, List<MessageSearch.Hit>> found = database.transaction(db -> Map.of(
                        "text", MessageSearch.search(db, USER, q.text(), K),
                        "text, any word", MessageSearch.searchAnyWord(db, USER, q.text(), K),
                        "semantic", SemanticSearch.semantic(db, USER, MODEL, qv, K),
                        "hybrid", SemanticSearch.hybrid(MessageSearch.searchAnyWord(db, USER, q.text(),
                                        SemanticSearch.hybridDepth(K)),
                                SemanticSearch.semantic(db, USER, MODEL, qv, SemanticSearch.hybridDepth(K)), K)));
                for (String mode : recall.keySet()) {
                    List<MessageSearch.Hit> hits = found.get(mode);
                    int relevant = 0;
                    double rr = 0;
                    for (int rank = 0; rank < hits.size(); rank++) {
                        if (hits.get(rank).sessionId().startsWith(q.topic() + "-")) {
                            relevant++;
                            rr = rr == 0 ? 1.0 / (rank + 1) : rr;
                        }
                    }
                    recall.get(mode)[qi] = relevant / (double) perTopic.get(q.topic());
                    reciprocalRank.get(mode)[qi] = rr;
                    empty.get(mode)[0] += hits.isEmpty() ? 1 : 0;
                    if (verbose) {
                        System.out.printf(Locale.ROOT, "%-14s %-45s recall %.1f  first relevant at %s%n", mode,
                                q.text(), recall.get(mode)[qi], rr == 0 ? "-" : String.valueOf((int) (1 / rr)));
                    }
                }
            }
            System.out.println();
            System.out.println("| mode | recall@10 (mean) | MRR | queries with no result |");
            System.out.println("|---|---|---|---|");
            for (String mode : recall.keySet()) {
                System.out.printf(Locale.ROOT, "| %s | %.3f | %.3f | %d of %d |%n", mode, mean(recall.get(mode)),
                        mean(reciprocalRank.get(mode)), empty.get(mode)[0], queries.size());
            }
        }
    }

    private static String id(int i, Message m) {
        return m.topic() + "-" + i;
    }

    private static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return values.length == 0 ? Double.NaN : sum / values.length;
    }

    private static void load(List<Message> messages, List<Query> queries) throws Exception {
        try (InputStream in = SearchRecallBench.class.getResourceAsStream("/search/fixture.txt");
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            Set<String> seen = new HashSet<>();
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split(" ", 3);
                if (parts[0].equals("M")) {
                    if (!seen.add(parts[2])) {
                        throw new IllegalStateException("fixture: message twice: " + parts[2]);
                    }
                    messages.add(new Message(parts[1], parts[2]));
                } else if (parts[0].equals("Q")) {
                    queries.add(new Query(parts[1], parts[2]));
                } else {
                    throw new IllegalStateException("fixture: a line is M or Q: " + line);
                }
            }
        }
    }
}
