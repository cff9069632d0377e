package org.blogsearch.analysis;

import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.email.UAX29URLEmailTokenizer;
import org.apache.lucene.analysis.pattern.PatternCaptureGroupTokenFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;
import org.elasticsearch.indices.analysis.AnalysisModule.AnalysisProvider;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The analysis components the security feature's own index needs, under the full distribution's
 * names. With security on, Elasticsearch keeps roles and users made through its API in the
 * `.security` system index, whose `email` analyzer is `uax_url_email` + `pattern_capture` +
 * `lowercase` + `unique`: without these the index cannot be created, and PUT _security/role fails
 * with "Unknown filter type [pattern_capture]". The official image has them (analysis-common).
 */
final class SecurityIndexAnalysis {

    private SecurityIndexAnalysis() {}

    static Map<String, AnalysisProvider<TokenFilterFactory>> tokenFilters() {
        return Map.of("pattern_capture", requiresSettings((indexSettings, env, name, settings) -> {
            boolean preserveOriginal = settings.getAsBoolean("preserve_original", true);
            List<String> regexes = settings.getAsList("patterns");
            if (regexes.isEmpty()) {
                throw new IllegalArgumentException("required setting 'patterns' is missing for token filter [" + name + "]");
            }
            Pattern[] patterns = regexes.stream().map(Pattern::compile).toArray(Pattern[]::new);
            return new Compat.FilterFactory(name, settings) {
                @Override
                public TokenStream create(TokenStream in) {
                    return new PatternCaptureGroupTokenFilter(in, preserveOriginal, patterns);
                }
            };
        }), "unique", (indexSettings, env, name, settings) -> {
            boolean samePosition = settings.getAsBoolean("only_on_same_position", false);
            return new Compat.FilterFactory(name, settings) {
                @Override
                public TokenStream create(TokenStream in) {
                    return new UniqueTokenFilter(in, samePosition);
                }
            };
        });
    }

    static Map<String, AnalysisProvider<TokenizerFactory>> tokenizers() {
        return Map.of("uax_url_email", (indexSettings, env, name, settings) -> {
            int maxTokenLength = settings.getAsInt("max_token_length", 255);
            return TokenizerFactory.newFactory(name, () -> {
                UAX29URLEmailTokenizer tokenizer = new UAX29URLEmailTokenizer();
                tokenizer.setMaxTokenLength(maxTokenLength);
                return tokenizer;
            });
        });
    }

    private static <T> AnalysisProvider<T> requiresSettings(AnalysisProvider<T> provider) {
        return org.elasticsearch.plugins.AnalysisPlugin.requiresAnalysisSettings(provider);
    }

    /** The full distribution's `unique`: drops a term seen before (in the stream, or at its position). */
    static final class UniqueTokenFilter extends TokenFilter {
        private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
        private final PositionIncrementAttribute position = addAttribute(PositionIncrementAttribute.class);
        private final CharArraySet seen = new CharArraySet(8, false);
        private final boolean onlyOnSamePosition;

        UniqueTokenFilter(TokenStream in, boolean onlyOnSamePosition) {
            super(in);
            this.onlyOnSamePosition = onlyOnSamePosition;
        }

        @Override
        public boolean incrementToken() throws IOException {
            while (input.incrementToken()) {
                char[] chars = term.buffer();
                int length = term.length();
                if (onlyOnSamePosition && position.getPositionIncrement() > 0) {
                    seen.clear();
                }
                if (seen.contains(chars, 0, length) == false) {
                    char[] copy = new char[length];
                    System.arraycopy(chars, 0, copy, 0, length);
                    seen.add(copy);
                    return true;
                }
            }
            return false;
        }

        @Override
        public void reset() throws IOException {
            super.reset();
            seen.clear();
        }
    }
}
