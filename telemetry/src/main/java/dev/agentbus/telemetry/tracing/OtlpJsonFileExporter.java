package dev.agentbus.telemetry.tracing;

import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;

/**
 * Writes spans as OTLP JSON, one {@code ExportTraceServiceRequest} ({@code {"resourceSpans":[…]}}) a line: the
 * format of the OpenTelemetry Collector's file exporter, so the same tools read either. Several processes may append
 * to one file: each line is written with one append, under a file lock.
 *
 * <p>The JSON comes from the OTLP exporter's own marshaler (the one its HTTP/JSON sender uses), so the encoding
 * (hex ids, nanosecond times as strings, attribute values) is the protocol's, not ours.
 */
final class OtlpJsonFileExporter implements SpanExporter {
    private final Path file;

    OtlpJsonFileExporter(Path file) throws IOException {
        this.file = file;
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        if (spans.isEmpty()) {
            return CompletableResultCode.ofSuccess();
        }
        try {
            ByteArrayOutputStream json = new ByteArrayOutputStream();
            TraceRequestMarshaler.create(spans).writeJsonTo(json);
            json.write('\n');
            try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
                 var lock = out.lock()) {
                ByteBuffer bytes = ByteBuffer.wrap(json.toByteArray());
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
            }
            return CompletableResultCode.ofSuccess();
        } catch (IOException e) {
            return CompletableResultCode.ofExceptionalFailure(e);
        }
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
