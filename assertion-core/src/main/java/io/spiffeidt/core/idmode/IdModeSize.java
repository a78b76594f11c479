package io.spiffeidt.core.idmode;

import java.util.ArrayList;
import java.util.List;

/**
 * The encoded sizes of an ID-Mode presentation at one depth (docs/formats/id-mode.md "Endpoints", size
 * note): token bytes and artifacts bytes (JSON form), reported separately as the original
 * vectors do. Used by the {@code spiffeidt.document.size} metric and the JMH size benchmark.
 *
 * <p>Thread safety: immutable.
 *
 * @param depth the number of layers
 * @param tokenBytes the token's size in bytes
 * @param artifactsBytes the artifacts' JSON form size in bytes
 */
public record IdModeSize(int depth, int tokenBytes, int artifactsBytes) {

    /** Token plus artifacts. */
    public int totalBytes() {
        return tokenBytes + artifactsBytes;
    }

    /** The sizes of one presentation (no parsing beyond counting segments). */
    public static IdModeSize of(IdModePresentation presentation) {
        String token = presentation.token();
        int segments = 1;
        for (int i = 0; i < token.length(); i++) {
            if (token.charAt(i) == '.') {
                segments++;
            }
        }
        return new IdModeSize(
                segments / 2, token.length(), presentation.artifacts().encodedSize());
    }

    /**
     * The sizes at every depth {@code 1 … L} of a (well-formed) presentation, computed by segment
     * arithmetic from its inner prefixes: what the token and artifacts weighed after each hop.
     *
     * @throws io.spiffeidt.core.AssertionException when the token does not parse
     */
    public static List<IdModeSize> perDepth(IdModePresentation presentation, io.spiffeidt.core.Limits limits) {
        IdModeToken token = IdModeToken.parse(presentation.token(), limits);
        int depth = Math.min(token.depth(), presentation.artifacts().size());
        List<IdModeSize> out = new ArrayList<>(depth);
        for (int d = 1; d <= depth; d++) {
            out.add(new IdModeSize(
                    d,
                    token.prefix(d).length(),
                    presentation.artifacts().prefix(d).encodedSize()));
        }
        return List.copyOf(out);
    }
}
