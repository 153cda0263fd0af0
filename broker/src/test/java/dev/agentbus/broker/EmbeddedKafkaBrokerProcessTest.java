package dev.agentbus.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The broker as its own OS process, the way tests that restart or kill "the broker" use it. */
class EmbeddedKafkaBrokerProcessTest {

    @TempDir
    Path tmp;

    @Test
    void mainPrintsReadyServesClientsAndStopsCleanlyOnSigterm() throws Exception {
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        Path stderr = tmp.resolve("broker.stderr");
        Process process = new ProcessBuilder(List.of(
                javaBin.toString(),
                // Small heap: proves the footprint settings are enough; also what a test harness would use.
                "-Xmx256m",
                "-cp", System.getProperty("java.class.path"),
                EmbeddedKafkaBroker.class.getName(),
                "--data-dir", tmp.resolve("data").toString(),
                "--port", "0"))
                .redirectError(stderr.toFile())
                .start();
        try {
            // Drain stdout on a thread so the child never blocks on a full pipe.
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        lines.add(line);
                    }
                } catch (java.io.IOException ignored) {
                    // process went away
                }
            }, "broker-stdout");
            reader.setDaemon(true);
            reader.start();

            long t0 = System.nanoTime();
            String ready = awaitLine(lines, EmbeddedKafkaBroker.READY_PREFIX, 60, stderr);
            System.err.printf("broker process ready after %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
            String bootstrap = ready.substring(EmbeddedKafkaBroker.READY_PREFIX.length()).trim();
            assertThat(bootstrap).matches("127\\.0\\.0\\.1:\\d+");

            TestClients.createTopic(bootstrap, "from-process", 3);
            TestClients.produce(bootstrap, "from-process", "k", "v");
            assertThat(TestClients.readAll(bootstrap, "from-process", "read_committed"))
                    .extracting(ConsumerRecord::value).containsExactly("v");

            long t1 = System.nanoTime();
            process.destroy(); // SIGTERM -> shutdown hook -> graceful stop
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("broker process exits after SIGTERM").isTrue();
            System.err.printf("broker process stopped after %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1));
            reader.join(5_000);
            assertThat(lines).as("shutdown hook ran to the end; stderr:%n%s", Files.readString(stderr))
                    .contains(EmbeddedKafkaBroker.STOPPED_LINE);
        } finally {
            process.destroyForcibly();
        }
    }

    private static String awaitLine(BlockingQueue<String> lines, String prefix, int seconds, Path stderr)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(200, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError("no '" + prefix + "' line within " + seconds + " s; stderr:\n"
                + (Files.exists(stderr) ? Files.readString(stderr) : "<none>"));
    }
}
