package dev.agentbus.gateway.accounts.credentials;

import com.google.zxing.BinaryBitmap;
import com.google.zxing.DecodeHintType;
import com.google.zxing.LuminanceSource;
import com.google.zxing.Result;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.common.HybridBinarizer;
import com.google.zxing.qrcode.QRCodeReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.StringReader;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QrCodesTest {
    private static final String URI = Totp.otpauthUri("Agentbus", "alice@example.com", "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");

    @Test
    void the_svg_is_a_well_formed_document_with_a_module_viewbox_a_white_background_and_one_path() throws Exception {
        String svg = QrCodes.svg(URI);
        BitMatrix matrix = QrCodes.matrix(URI);
        int size = matrix.getWidth();

        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Document document = factory.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
        Element root = document.getDocumentElement();

        assertThat(root.getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
        assertThat(root.getLocalName()).isEqualTo("svg");
        assertThat(root.getAttribute("viewBox")).isEqualTo("0 0 " + size + " " + size);
        assertThat(root.getAttribute("shape-rendering")).isEqualTo("crispEdges");
        assertThat(root.getElementsByTagNameNS("*", "rect").getLength()).isEqualTo(1);
        Element rect = (Element) root.getElementsByTagNameNS("*", "rect").item(0);
        assertThat(rect.getAttribute("fill")).isEqualTo("#ffffff");
        assertThat(rect.getAttribute("width")).isEqualTo(String.valueOf(size));
        assertThat(root.getElementsByTagNameNS("*", "path").getLength()).isEqualTo(1);
        Element path = (Element) root.getElementsByTagNameNS("*", "path").item(0);
        assertThat(path.getAttribute("fill")).isEqualTo("#000000");
        assertThat(path.getAttribute("d")).matches("(M\\d+ \\d+h\\d+v1h-\\d+z)+");
    }

    @Test
    void the_path_covers_exactly_the_black_modules() {
        BitMatrix matrix = QrCodes.matrix(URI);
        String d = QrCodes.svg(URI).replaceAll("(?s).* d=\"([^\"]*)\".*", "$1");
        BitMatrix drawn = new BitMatrix(matrix.getWidth(), matrix.getHeight());
        for (String run : d.split("z")) {
            String[] parts = run.substring(1).split("[ hv]");
            int x = Integer.parseInt(parts[0]);
            int y = Integer.parseInt(parts[1]);
            int length = Integer.parseInt(parts[2]);
            drawn.setRegion(x, y, length, 1);
        }
        assertThat(drawn).isEqualTo(matrix);
    }

    @Test
    void the_matrix_has_a_four_module_white_margin() {
        BitMatrix matrix = QrCodes.matrix(URI);
        int[] box = matrix.getEnclosingRectangle(); // left, top, width, height of the black modules

        assertThat(box[0]).isEqualTo(4);
        assertThat(box[1]).isEqualTo(4);
        assertThat(matrix.getWidth() - box[0] - box[2]).isEqualTo(4);
        assertThat(matrix.getHeight() - box[1] - box[3]).isEqualTo(4);
        // A QR code is 17 + 4 × version modules square.
        assertThat((box[2] - 17) % 4).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "otpauth://totp/Agentbus:alice%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Agentbus"
                    + "&algorithm=SHA1&digits=6&period=30",
            "x",
            "Grüße aus Köln — 東京 🔑"
    })
    void the_matrix_decodes_back_to_the_text(String text) throws Exception {
        BitMatrix matrix = QrCodes.matrix(text);
        BinaryBitmap bitmap = new BinaryBitmap(new HybridBinarizer(new ModuleImage(matrix, 4)));

        Result result = new QRCodeReader().decode(bitmap, Map.of(DecodeHintType.TRY_HARDER, Boolean.TRUE));

        assertThat(result.getText()).isEqualTo(text);
    }

    @Test
    void an_ascii_text_is_encoded_with_error_correction_m_and_no_eci_header() throws Exception {
        BitMatrix matrix = QrCodes.matrix(URI);
        Result result = new QRCodeReader().decode(
                new BinaryBitmap(new HybridBinarizer(new ModuleImage(matrix, 4))), Map.of());

        assertThat(result.getResultMetadata()).containsEntry(
                com.google.zxing.ResultMetadataType.ERROR_CORRECTION_LEVEL, "M");
        // "]Q1": a QR code without ECI (ISO/IEC 18004 symbology identifier), so older scanners read it plainly.
        assertThat(result.getResultMetadata()).containsEntry(
                com.google.zxing.ResultMetadataType.SYMBOLOGY_IDENTIFIER, "]Q1");
    }

    @Test
    void empty_text_is_refused() {
        assertThatThrownBy(() -> QrCodes.svg("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void text_too_long_for_a_qr_code_is_refused() {
        assertThatThrownBy(() -> QrCodes.svg("x".repeat(5000))).isInstanceOf(IllegalArgumentException.class);
    }

    /** A grey-scale image of a module matrix, each module {@code scale} pixels square: black 0, white 255. */
    private static final class ModuleImage extends LuminanceSource {
        private final BitMatrix matrix;
        private final int scale;

        ModuleImage(BitMatrix matrix, int scale) {
            super(matrix.getWidth() * scale, matrix.getHeight() * scale);
            this.matrix = matrix;
            this.scale = scale;
        }

        @Override
        public byte[] getRow(int y, byte[] row) {
            int width = getWidth();
            byte[] out = row != null && row.length >= width ? row : new byte[width];
            for (int x = 0; x < width; x++) {
                out[x] = matrix.get(x / scale, y / scale) ? 0 : (byte) 255;
            }
            return out;
        }

        @Override
        public byte[] getMatrix() {
            int width = getWidth();
            byte[] out = new byte[width * getHeight()];
            byte[] row = new byte[width];
            for (int y = 0; y < getHeight(); y++) {
                System.arraycopy(getRow(y, row), 0, out, y * width, width);
            }
            return out;
        }
    }
}
