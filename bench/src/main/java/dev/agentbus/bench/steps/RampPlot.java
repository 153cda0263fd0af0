package dev.agentbus.bench.steps;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ramp as a PNG: step time (p50 solid, p99 dashed) against sessions at once, both axes logarithmic, one colour
 * per tool. Drawn with Java2D, so the bench needs no plotting library.
 */
final class RampPlot {
    private static final int W = 900;
    private static final int H = 560;
    private static final int LEFT = 80;
    private static final int RIGHT = 200;
    private static final int TOP = 40;
    private static final int BOTTOM = 60;
    private static final Color[] COLOURS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
            new Color(0x9467bd)};

    private RampPlot() {
    }

    static void write(List<StackRun.Result> results, Path file) throws IOException {
        Map<String, List<StackRun.Result>> byTool = new LinkedHashMap<>();
        for (StackRun.Result r : results) {
            if (r.firstToken().isZero()) {
                byTool.computeIfAbsent(r.tool(), k -> new ArrayList<>()).add(r);
            }
        }
        double maxSessions = results.stream().mapToInt(StackRun.Result::sessions).max().orElse(10);
        double minMs = results.stream().mapToDouble(StackRun.Result::p50).min().orElse(1);
        double maxMs = results.stream().mapToDouble(StackRun.Result::p99).max().orElse(1000);
        double xMax = Math.log10(Math.max(10, maxSessions));
        double yMin = Math.floor(Math.log10(Math.max(0.1, minMs)));
        double yMax = Math.ceil(Math.log10(Math.max(minMs * 10, maxMs)));

        BufferedImage image = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, W, H);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        g.drawString("Agentbus step time against sessions at once (p50 solid, p99 dashed)", LEFT, 24);
        int plotW = W - LEFT - RIGHT;
        int plotH = H - TOP - BOTTOM;
        g.drawRect(LEFT, TOP, plotW, plotH);
        g.setColor(Color.GRAY);
        for (int d = 0; d <= (int) xMax; d++) {
            int x = LEFT + (int) (plotW * d / xMax);
            g.drawLine(x, TOP + plotH, x, TOP + plotH + 5);
            g.drawString(Integer.toString((int) Math.pow(10, d)), x - 8, TOP + plotH + 20);
        }
        for (double d = yMin; d <= yMax; d++) {
            int y = TOP + plotH - (int) (plotH * (d - yMin) / (yMax - yMin));
            g.drawLine(LEFT - 5, y, LEFT, y);
            g.drawString(formatMs(Math.pow(10, d)), 10, y + 5);
        }
        g.setColor(Color.BLACK);
        g.drawString("sessions at once", LEFT + plotW / 2 - 50, H - 15);
        g.drawString("step ms", 10, TOP - 10);

        int colour = 0;
        for (var entry : byTool.entrySet()) {
            Color c = COLOURS[colour++ % COLOURS.length];
            g.setColor(c);
            for (boolean p99 : new boolean[]{false, true}) {
                g.setStroke(p99 ? new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f,
                        new float[]{6f, 4f}, 0f) : new BasicStroke(2f));
                int[] xs = new int[entry.getValue().size()];
                int[] ys = new int[xs.length];
                for (int i = 0; i < xs.length; i++) {
                    StackRun.Result r = entry.getValue().get(i);
                    xs[i] = LEFT + (int) (plotW * Math.log10(r.sessions()) / xMax);
                    double ms = Math.max(Math.pow(10, yMin), p99 ? r.p99() : r.p50());
                    ys[i] = TOP + plotH - (int) (plotH * (Math.log10(ms) - yMin) / (yMax - yMin));
                    g.fillOval(xs[i] - 3, ys[i] - 3, 6, 6);
                }
                g.drawPolyline(xs, ys, xs.length);
            }
            int legendY = TOP + 20 * colour;
            g.setStroke(new BasicStroke(2f));
            g.drawLine(W - RIGHT + 15, legendY, W - RIGHT + 40, legendY);
            g.drawString(entry.getKey(), W - RIGHT + 48, legendY + 5);
        }
        g.dispose();
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        ImageIO.write(image, "png", file.toFile());
    }

    private static String formatMs(double ms) {
        return ms >= 1 ? Long.toString(Math.round(ms)) : Double.toString(ms);
    }
}
