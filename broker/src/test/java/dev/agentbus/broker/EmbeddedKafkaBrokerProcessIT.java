package dev.agentbus.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The broker as its own OS process, the way tests that restart or kill "the broker" use it. */
class EmbeddedKafkaBrokerProcessIT {

    @TempDir
    Path tmp;

    @Test
    void mainPrintsReadyServesClientsAndStopsCleanlyOnSigterm() throws Exception {
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        // stdout goes to a file, not a pipe: when the child exits, the JDK's process reaper closes
        // the pipe under a concurrent reader ("Stream closed") and the last line (KAFKA_STOPPED)
        // is lost. A file keeps everything.
        Path stdout = tmp.resolve("broker.stdout");
        Path stderr = tmp.resolve("broker.stderr");
        Process process = new ProcessBuilder(List.of(
                javaBin.toString(),
                // Small heap: the footprint settings must be enough for a real round trip.
                "-Xmx256m",
                "-cp", System.getProperty("java.class.path"),
                EmbeddedKafkaBroker.class.getName(),
                "--data-dir", tmp.resolve("data").toString(),
                "--port", "0"))
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
        try {
            long t0 = System.nanoTime();
            String ready = awaitLine(process, stdout, stderr, EmbeddedKafkaBroker.READY_PREFIX, 60);
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
            assertThat(Files.readAllLines(stdout))
                    .as("shutdown hook ran to the end; stderr:%n%s", Files.readString(stderr))
                    .containsExactly(ready, EmbeddedKafkaBroker.STOPPED_LINE);
        } finally {
            process.destroyForcibly();
        }
    }

    private static String awaitLine(Process process, Path stdout, Path stderr, String prefix, int seconds)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            Optional<String> line = Files.readAllLines(stdout).stream().filter(l -> l.startsWith(prefix)).findFirst();
            if (line.isPresent()) {
                return line.get();
            }
            if (!process.isAlive()) {
                break;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no '" + prefix + "' line within " + seconds + " s (alive: " + process.isAlive()
                + "); stderr:\n" + Files.readString(stderr));
    }
}
