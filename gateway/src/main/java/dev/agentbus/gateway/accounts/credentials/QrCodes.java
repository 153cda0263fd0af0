package dev.agentbus.gateway.accounts.credentials;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.EncodeHintType;
import com.google.zxing.WriterException;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.qrcode.QRCodeWriter;
import com.google.zxing.qrcode.decoder.ErrorCorrectionLevel;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;

/**
 * QR codes as SVG, for showing an {@code otpauth://} URI ({@link Totp#otpauthUri}) during two-factor enrolment.
 *
 * <p>SVG because it needs no image library (ZXing's javase module and AWT are not on the classpath), scales to any
 * size without blurring, and can be inlined into a page or served as {@code image/svg+xml}. The document has a
 * {@code viewBox} but no width or height, so the page decides how big it is; {@code shape-rendering="crispEdges"}
 * stops browsers anti-aliasing module edges into grey seams that can trip up scanners.
 */
public final class QrCodes {
    /**
     * Error correction level M restores about 15% damaged modules: enough for a glare spot or a moiré pattern on a
     * screen, while keeping an otpauth URI (typically 100 to 150 characters) at around 45 modules square, which
     * phone cameras read easily. Higher levels make the modules smaller and buy little for a code shown on a screen,
     * where nothing gets scratched or smudged.
     */
    private static final ErrorCorrectionLevel ERROR_CORRECTION = ErrorCorrectionLevel.M;
    /** Four modules of white around the code: the quiet zone the QR standard (ISO/IEC 18004) requires. */
    private static final int MARGIN = 4;

    private QrCodes() {
    }

    /**
     * A self-contained SVG document showing {@code text} as a QR code, one user unit per module (margin included).
     *
     * @throws IllegalArgumentException if {@code text} is empty or too long for a QR code
     */
    public static String svg(String text) {
        BitMatrix matrix = matrix(text);
        int width = matrix.getWidth();
        int height = matrix.getHeight();
        StringBuilder path = new StringBuilder();
        for (int y = 0; y < height; y++) {
            int x = 0;
            while (x < width) {
                if (!matrix.get(x, y)) {
                    x++;
                    continue;
                }
                // One rectangle per horizontal run of black modules rather than per module: several times shorter.
                int start = x;
                while (x < width && matrix.get(x, y)) {
                    x++;
                }
                int run = x - start;
                path.append('M').append(start).append(' ').append(y)
                        .append('h').append(run).append("v1h-").append(run).append('z');
            }
        }
        // Nothing from the caller reaches the markup (only numbers do), so there is nothing to escape.
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + width + " " + height + "\""
                + " shape-rendering=\"crispEdges\">"
                // An explicit white background: with a transparent one the code vanishes on a dark page or theme,
                // and scanners need dark modules on light.
                + "<rect width=\"" + width + "\" height=\"" + height + "\" fill=\"#ffffff\"/>"
                + "<path fill=\"#000000\" d=\"" + path + "\"/>"
                + "</svg>";
    }

    /** The QR code's modules, margin included, one matrix cell per module. Package-private for tests. */
    static BitMatrix matrix(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("nothing to encode");
        }
        Map<EncodeHintType, Object> hints = new EnumMap<>(EncodeHintType.class);
        hints.put(EncodeHintType.ERROR_CORRECTION, ERROR_CORRECTION);
        hints.put(EncodeHintType.MARGIN, MARGIN);
        if (!StandardCharsets.US_ASCII.newEncoder().canEncode(text)) {
            // Only when needed: naming a character set makes ZXing add an ECI header, which some older scanner apps
            // mishandle; plain ASCII (every otpauth URI, being percent-encoded) reads the same without one.
            hints.put(EncodeHintType.CHARACTER_SET, StandardCharsets.UTF_8.name());
        }
        try {
            // Width and height 0: the smallest matrix, one cell per module, instead of one scaled to pixels.
            return new QRCodeWriter().encode(text, BarcodeFormat.QR_CODE, 0, 0, hints);
        } catch (WriterException e) {
            throw new IllegalArgumentException("cannot encode as a QR code: " + e.getMessage(), e);
        }
    }
}
