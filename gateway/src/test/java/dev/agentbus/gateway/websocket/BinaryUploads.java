package dev.agentbus.gateway.websocket;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** OS-Agent's binary upload, as a client builds it: a 4-byte big-endian header length, the JSON header, the bytes. */
public final class BinaryUploads {
    private BinaryUploads() {
    }

    public static byte[] message(String header, byte[] content) {
        byte[] head = header.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + head.length + content.length).putInt(head.length).put(head).put(content)
                .array();
    }
}
