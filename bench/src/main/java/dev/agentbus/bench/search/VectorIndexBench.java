package dev.agentbus.bench.search;

import dev.agentbus.bench.Stats;
import dev.agentbus.gateway.readmodels.ReadModelDatabase;
import dev.agentbus.gateway.readmodels.searching.embedding.MessageVectors;
import dev.agentbus.gateway.readmodels.searching.ranking.NearestVectors;
import dev.agentbus.gateway.readmodels.searching.ranking.Vectors;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.ByteBuffersDirectory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * Which vector index semantic search should use, measured (docs/memory.md#the-index): one user's N vectors searched
 * for their 10 nearest to a query, three ways side by side:
 * <ul>
 *   <li><b>PostgreSQL, brute force</b>: what the gateway does ({@code MessageVectors.ofUser} reads the user's
 *       {@code bytea} vectors, {@code NearestVectors.top} scores them all); "build" is inserting the rows;
 *   <li><b>heap, brute force</b>: the same scoring over vectors already in memory, i.e. the floor a cache would give;
 *   <li><b>Lucene HNSW</b> (lucene-core, in-memory directory, one segment, dot-product similarity, default graph
 *       settings): build is adding the documents and opening a reader; recall@10 is measured against the exact
 *       answer.
 * </ul>
 * Vectors are random unit vectors around 200 cluster centres (embeddings of real text cluster by topic; uniform
 * random vectors would be HNSW's worst case). Queries are fresh points near the centres.
 *
 * <p>{@code bin/bench VectorIndexBench [--dims 768] [--sizes 1000,10000,100000] [--queries 30] [--no-lucene]
 * [--storage main|extended|external]}. Lucene prints a
 * warning that it runs without the incubating vector module: bin/bench does not add it, so Lucene scores with plain
 * Java loops, as the gateway's brute force does.
 */
public final class VectorIndexBench {
    private static final int K = 10;
    private static final String USER = "bench";
    private static final String MODEL = "random";

    public static void main(String[] args) throws Exception {
        int dims = Integer.parseInt(arg(args, "--dims", "768"));
        List<Integer> sizes = new ArrayList<>();
        for (String s : arg(args, "--sizes", "1000,10000,100000").split(",")) {
            sizes.add(Integer.parseInt(s.strip()));
        }
        int queries = Integer.parseInt(arg(args, "--queries", "30"));
        boolean withLucene = !List.of(args).contains("--no-lucene");
        System.out.println(Stats.machine());
        System.out.printf(Locale.ROOT, "%d dimensions, k = %d, %d queries per line, clustered random vectors%n%n",
                dims, K, queries);
        System.out.println("| vectors | index | build s | query p50 ms | query p90 ms | recall@10 |");
        System.out.println("|---|---|---|---|---|---|");

        Path dir = Files.createTempDirectory("agentbus-bench-vectors");
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setDataDirectory(dir.resolve("postgres")).start();
             ReadModelDatabase database = ReadModelDatabase.connect(postgres.getJdbcUrl("postgres", "postgres"),
                     null, null)) {
            database.migrate();
            String storage = arg(args, "--storage", "");
            if (!storage.isBlank()) {
                // To compare the column's TOAST storage: EXTENDED (compressed, moved out of line past 2 kB), MAIN
                // (kept in the row while it fits the page), EXTERNAL (out of line, uncompressed).
                database.transaction(db -> db.createStatement().execute("ALTER TABLE message_embeddings ALTER "
                        + "COLUMN vector SET STORAGE " + storage.toUpperCase(Locale.ROOT).replaceAll("[^A-Z]", "")));
                System.out.println("vector column storage: " + storage);
            }
            for (int n : sizes) {
                Random random = new Random(n);
                float[][] centres = new float[200][];
                for (int c = 0; c < centres.length; c++) {
                    centres[c] = gaussian(random, dims, 1);
                }
                List<NearestVectors.Candidate<Integer>> vectors = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    vectors.add(new NearestVectors.Candidate<>(i, near(random, centres[random.nextInt(200)])));
                }
                List<float[]> qs = new ArrayList<>();
                for (int i = 0; i < queries; i++) {
                    qs.add(near(random, centres[random.nextInt(200)]));
                }
                List<Set<Integer>> exact = new ArrayList<>();
                for (float[] q : qs) {
                    Set<Integer> top = new HashSet<>();
                    NearestVectors.top(q, vectors, K, -2).forEach(s -> top.add(s.key()));
                    exact.add(top);
                }

                // PostgreSQL, brute force
                database.transaction(db -> {
                    db.createStatement().execute("TRUNCATE message_embeddings");
                    return null;
                });
                long t0 = System.nanoTime();
                for (int from = 0; from < n; from += 5000) {
                    List<MessageVectors.Stored> rows = new ArrayList<>();
                    for (int i = from; i < Math.min(n, from + 5000); i++) {
                        rows.add(new MessageVectors.Stored(new MessageVectors.Key("s" + i, 1), USER,
                                vectors.get(i).vector()));
                    }
                    database.transaction(db -> {
                        MessageVectors.insert(db, MODEL, rows);
                        return null;
                    });
                }
                double pgBuild = seconds(System.nanoTime() - t0);
                database.transaction(db -> {
                    db.createStatement().execute("ANALYZE message_embeddings");
                    return null;
                });
                double[] pg = new double[qs.size()];
                for (int w = 0; w < 3; w++) {
                    database.transaction(db -> NearestVectors.top(qs.getFirst(), MessageVectors.ofUser(db, USER,
                            MODEL), K, -2));
                }
                for (int i = 0; i < qs.size(); i++) {
                    float[] q = qs.get(i);
                    long s = System.nanoTime();
                    database.transaction(db -> NearestVectors.top(q, MessageVectors.ofUser(db, USER, MODEL), K, -2));
                    pg[i] = millis(System.nanoTime() - s);
                }
                row(n, "PostgreSQL bytea, brute force", pgBuild, pg, 1.0);

                // heap, brute force
                double[] heap = new double[qs.size()];
                for (int w = 0; w < 3; w++) {
                    NearestVectors.top(qs.getFirst(), vectors, K, -2);
                }
                for (int i = 0; i < qs.size(); i++) {
                    long s = System.nanoTime();
                    NearestVectors.top(qs.get(i), vectors, K, -2);
                    heap[i] = millis(System.nanoTime() - s);
                }
                row(n, "heap, brute force", Double.NaN, heap, 1.0);

                if (!withLucene) {
                    continue;
                }
                // Lucene HNSW
                try (ByteBuffersDirectory directory = new ByteBuffersDirectory()) {
                    long b0 = System.nanoTime();
                    IndexWriterConfig config = new IndexWriterConfig().setRAMBufferSizeMB(2048);
                    try (IndexWriter writer = new IndexWriter(directory, config)) {
                        for (NearestVectors.Candidate<Integer> v : vectors) {
                            Document doc = new Document();
                            doc.add(new KnnFloatVectorField("v", v.vector(), VectorSimilarityFunction.DOT_PRODUCT));
                            writer.addDocument(doc);
                        }
                        writer.forceMerge(1);
                        writer.commit();
                    }
                    try (DirectoryReader reader = DirectoryReader.open(directory)) {
                        double luceneBuild = seconds(System.nanoTime() - b0);
                        IndexSearcher searcher = new IndexSearcher(reader);
                        for (int w = 0; w < 3; w++) {
                            searcher.search(new KnnFloatVectorQuery("v", qs.getFirst(), K), K);
                        }
                        double[] lucene = new double[qs.size()];
                        double found = 0;
                        for (int i = 0; i < qs.size(); i++) {
                            long s = System.nanoTime();
                            ScoreDoc[] hits = searcher.search(new KnnFloatVectorQuery("v", qs.get(i), K), K)
                                    .scoreDocs;
                            lucene[i] = millis(System.nanoTime() - s);
                            for (ScoreDoc h : hits) {
                                // One segment, documents added in order: the doc id is the vector's index.
                                found += exact.get(i).contains(h.doc) ? 1 : 0;
                            }
                        }
                        row(n, "Lucene HNSW (in memory)", luceneBuild, lucene, found / (qs.size() * (double) K));
                    }
                }
            }
        }
    }

    private static void row(int n, String index, double build, double[] latencies, double recall) {
        System.out.printf(Locale.ROOT, "| %,d | %s | %s | %.2f | %.2f | %.3f |%n", n, index,
                Double.isNaN(build) ? "—" : String.format(Locale.ROOT, "%.2f", build), Stats.median(latencies),
                Stats.percentile(latencies, 90), recall);
    }

    private static float[] gaussian(Random random, int dims, double sigma) {
        float[] v = new float[dims];
        for (int d = 0; d < dims; d++) {
            v[d] = (float) (random.nextGaussian() * sigma);
        }
        return v;
    }

    private static float[] near(Random random, float[] centre) {
        float[] noise = gaussian(random, centre.length, 0.6);
        float[] v = new float[centre.length];
        for (int d = 0; d < v.length; d++) {
            v[d] = centre[d] + noise[d];
        }
        return Vectors.normalised(v);
    }

    private static String arg(String[] args, String name, String fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }
}
