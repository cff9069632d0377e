package org.blogsearch.analysis;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.charfilter.HTMLStripCharFilter;
import org.apache.lucene.analysis.charfilter.MappingCharFilter;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.charfilter.NormalizeCharMap;
import org.apache.lucene.analysis.de.GermanLightStemFilter;
import org.apache.lucene.analysis.de.GermanMinimalStemFilter;
import org.apache.lucene.analysis.de.GermanNormalizationFilter;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishMinimalStemFilter;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.KStemFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.fr.FrenchAnalyzer;
import org.apache.lucene.analysis.fr.FrenchLightStemFilter;
import org.apache.lucene.analysis.fr.FrenchMinimalStemFilter;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.ngram.EdgeNGramTokenFilter;
import org.apache.lucene.analysis.pattern.PatternReplaceCharFilter;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.util.ElisionFilter;
import org.elasticsearch.Build;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.metadata.IndexNameExpressionResolver;
import org.elasticsearch.cluster.node.DiscoveryNodes;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.regex.Regex;
import org.elasticsearch.common.settings.ClusterSettings;
import org.elasticsearch.common.settings.IndexScopedSettings;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.settings.SettingsFilter;
import org.elasticsearch.features.NodeFeature;
import org.elasticsearch.index.analysis.AbstractCharFilterFactory;
import org.elasticsearch.index.analysis.AnalyzerProvider;
import org.elasticsearch.index.analysis.CharFilterFactory;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;
import org.elasticsearch.indices.analysis.AnalysisModule.AnalysisProvider;
import org.elasticsearch.index.mapper.Mapper;
import org.elasticsearch.index.mapper.TextFieldMapper;
import org.elasticsearch.plugins.AnalysisPlugin;
import org.elasticsearch.plugins.MapperPlugin;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestController;
import org.elasticsearch.rest.RestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.RestResponse;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.synonyms.SynonymsManagementAPIService;
import org.elasticsearch.xcontent.XContentBuilder;
import org.tartarus.snowball.ext.EnglishStemmer;
import org.tartarus.snowball.ext.FrenchStemmer;
import org.tartarus.snowball.ext.GermanStemmer;

import java.io.Reader;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Supplies, for the integ-test distribution of Elasticsearch used in development and tests, the
 * parts of the full distribution that this project's index mappings rely on.
 *
 * The integ-test zip on Maven Central lacks the analysis-common, reindex and rest-root modules. The
 * security feature's system index needs three analysis-common components (SecurityIndexAnalysis). The
 * synonyms API is in the server but needs the reindex module's delete-by-query action (to replace a
 * set's rules), the mapper-extras module's `match_only_text` field (its system index maps the rules
 * with it) and analysis-common's synonym filters (to apply a set): all three are here. Every name
 * registered here is the name the full distribution uses for the same Lucene component, so the
 * mappings in search/documents.py run unchanged on the official Docker image, where this plugin
 * is not installed. Names that the server already registers itself (lowercase, stop, shingle)
 * must not be registered again: a duplicate name stops the node from starting.
 */
public class BlogSearchAnalysisPlugin extends Compat.ActionsPlugin implements AnalysisPlugin, MapperPlugin {

    private final AtomicReference<ClusterService> clusterService = new AtomicReference<>();
    private final AtomicReference<SynonymsManagementAPIService> synonymsService = new AtomicReference<>();

    @Override
    public Collection<?> createComponents(PluginServices services) {
        clusterService.set(services.clusterService());
        // Reads a synonyms set's rules from the .synonyms system index when analyzers are reloaded.
        synonymsService.set(new SynonymsManagementAPIService(services.client()));
        return List.of();
    }

    /**
     * `match_only_text` is a `text` field without positions or scores, to save disk; the synonyms
     * API's system index maps a rule's text with it, and only stores and reads it. Here it is a
     * plain `text` field: the same answers, a little more disk, on a development node only.
     */
    @Override
    public Map<String, Mapper.TypeParser> getMappers() {
        return Map.of("match_only_text", TextFieldMapper.PARSER);
    }

    // ---------------------------------------------------------------- token filters

    /** A token filter factory from a lambda, the shape of every filter below. */
    private interface FilterFn {
        TokenStream apply(TokenStream in);
    }

    private static TokenFilterFactory filter(String name, Settings settings, FilterFn fn) {
        return new Compat.FilterFactory(name, settings) {
            @Override
            public TokenStream create(TokenStream tokenStream) {
                return fn.apply(tokenStream);
            }
        };
    }

    /** The languages of the full distribution's "stemmer" filter that the project uses (English, German, French). */
    static FilterFn stemmer(String language) {
        switch (language.toLowerCase(Locale.ROOT)) {
            case "english":
            case "porter":
                return PorterStemFilter::new;
            case "light_english":
            case "kstem":
                return KStemFilter::new;
            case "minimal_english":
                return EnglishMinimalStemFilter::new;
            case "possessive_english":
                return EnglishPossessiveFilter::new;
            case "porter2":
                return in -> new SnowballFilter(in, new EnglishStemmer());
            case "german":
                return in -> new SnowballFilter(in, new GermanStemmer());
            case "light_german":
                return GermanLightStemFilter::new;
            case "minimal_german":
                return GermanMinimalStemFilter::new;
            case "french":
                return in -> new SnowballFilter(in, new FrenchStemmer());
            case "light_french":
                return FrenchLightStemFilter::new;
            case "minimal_french":
                return FrenchMinimalStemFilter::new;
            default:
                throw new IllegalArgumentException(
                    "stemmer language [" + language + "] is not supported by the development plugin; "
                        + "use one of english, porter, light_english, kstem, minimal_english, possessive_english, porter2, "
                        + "german, light_german, minimal_german, french, light_french, minimal_french"
                );
        }
    }

    @Override
    public Map<String, AnalysisProvider<TokenFilterFactory>> getTokenFilters() {
        Map<String, AnalysisProvider<TokenFilterFactory>> filters = new HashMap<>(SecurityIndexAnalysis.tokenFilters());
        filters.putAll(ownTokenFilters());
        return filters;
    }

    /** The security feature's system index needs a tokenizer of analysis-common too (SecurityIndexAnalysis). */
    @Override
    public Map<String, AnalysisProvider<TokenizerFactory>> getTokenizers() {
        return SecurityIndexAnalysis.tokenizers();
    }

    private Map<String, AnalysisProvider<TokenFilterFactory>> ownTokenFilters() {
        return Map.of(
            "porter_stem", (indexSettings, env, name, settings) -> filter(name, settings, PorterStemFilter::new),
            "kstem", (indexSettings, env, name, settings) -> filter(name, settings, KStemFilter::new),
            "snowball", (indexSettings, env, name, settings) -> {
                String language = settings.get("language", "English");
                return switch (language.toLowerCase(Locale.ROOT)) {
                    case "english" -> filter(name, settings, in -> new SnowballFilter(in, new EnglishStemmer()));
                    case "german" -> filter(name, settings, in -> new SnowballFilter(in, new GermanStemmer()));
                    case "french" -> filter(name, settings, in -> new SnowballFilter(in, new FrenchStemmer()));
                    default -> throw new IllegalArgumentException(
                        "snowball language [" + language + "] is not supported by the development plugin"
                    );
                };
            },
            "stemmer", (indexSettings, env, name, settings) -> {
                String language = settings.get("language", settings.get("name", "english"));
                return filter(name, settings, stemmer(language));
            },
            "german_normalization", (indexSettings, env, name, settings) -> filter(name, settings, GermanNormalizationFilter::new),
            "elision", (indexSettings, env, name, settings) -> {
                // Case is ignored when articles_case is true, as in the full distribution. Without `articles`, Lucene's
                // French ones: the node's own system indices ask for an elision filter with no settings at start-up
                // (refusing it left .security-7 unassigned). Inline lists only: no articles_path.
                if (settings.get("articles_path") != null) {
                    throw new IllegalArgumentException("elision [articles_path] is not supported by the development plugin; list [articles]");
                }
                List<String> articles = settings.getAsList("articles");
                CharArraySet set = articles.isEmpty()
                    ? FrenchAnalyzer.DEFAULT_ARTICLES
                    : new CharArraySet(articles, settings.getAsBoolean("articles_case", false));
                return filter(name, settings, in -> new ElisionFilter(in, set));
            },
            "asciifolding", (indexSettings, env, name, settings) -> {
                boolean preserveOriginal = settings.getAsBoolean("preserve_original", false);
                return filter(name, settings, in -> new ASCIIFoldingFilter(in, preserveOriginal));
            },
            "synonym_graph", AnalysisPlugin.requiresAnalysisSettings(
                (indexSettings, env, name, settings) -> new SynonymFilterFactory(name, settings, env, synonymsService::get, true)
            ),
            "synonym", AnalysisPlugin.requiresAnalysisSettings(
                (indexSettings, env, name, settings) -> new SynonymFilterFactory(name, settings, env, synonymsService::get, false)
            ),
            "edge_ngram", (indexSettings, env, name, settings) -> {
                int minGram = settings.getAsInt("min_gram", 1);
                int maxGram = settings.getAsInt("max_gram", 2);
                boolean preserveOriginal = settings.getAsBoolean("preserve_original", false);
                return filter(name, settings, in -> new EdgeNGramTokenFilter(in, minGram, maxGram, preserveOriginal));
            }
        );
    }

    // ---------------------------------------------------------------- char filters

    @Override
    public Map<String, AnalysisProvider<CharFilterFactory>> getCharFilters() {
        return Map.of("html_strip", (indexSettings, env, name, settings) -> {
            List<String> escaped = settings.getAsList("escaped_tags");
            Set<String> escapedTags = escaped.isEmpty() ? null : new HashSet<>(escaped);
            return new AbstractCharFilterFactory(name) {
                @Override
                public Reader create(Reader reader) {
                    return new HTMLStripCharFilter(reader, escapedTags);
                }
            };
        }, "pattern_replace", AnalysisPlugin.requiresAnalysisSettings((indexSettings, env, name, settings) -> {
            // The full distribution's: a Java regular expression, its `flags` ("CASE_INSENSITIVE|..."),
            // and the replacement ($1 for a group); offsets are corrected for highlighting.
            String regex = settings.get("pattern");
            if (regex == null) {
                throw new IllegalArgumentException("pattern is missing for [" + name + "] char filter of type 'pattern_replace'");
            }
            Pattern compiled = Regex.compile(regex, settings.get("flags"));
            String replacement = settings.get("replacement", "");
            return new AbstractCharFilterFactory(name) {
                @Override
                public Reader create(Reader reader) {
                    return new PatternReplaceCharFilter(compiled, replacement, reader);
                }
            };
        }), "mapping", AnalysisPlugin.requiresAnalysisSettings((indexSettings, env, name, settings) -> {
            // Only where an index configures one: without requiresAnalysisSettings the node builds
            // a default instance, without rules, for every index, and every index fails to open.
            NormalizeCharMap map = mappings(settings.getAsList("mappings"));
            return new AbstractCharFilterFactory(name) {
                @Override
                public Reader create(Reader reader) {
                    return new MappingCharFilter(map, reader);
                }
            };
        }));
    }

    private static final Pattern MAPPING_RULE = Pattern.compile("(.*)\\s*=>\\s*(.*)\\s*$");

    /** The full distribution's "mapping" rules ("a => b", inline only: no mappings_path). */
    static NormalizeCharMap mappings(List<String> rules) {
        if (rules.isEmpty()) {
            throw new IllegalArgumentException("mapping requires `mappings` (the development plugin reads no mappings_path)");
        }
        NormalizeCharMap.Builder builder = new NormalizeCharMap.Builder();
        for (String rule : rules) {
            Matcher m = MAPPING_RULE.matcher(rule);
            if (m.find() == false) {
                throw new IllegalArgumentException("Invalid mapping rule : [" + rule + "]");
            }
            String lhs = unescape(m.group(1).trim());
            String rhs = unescape(m.group(2).trim());
            if (lhs.isEmpty()) {
                throw new IllegalArgumentException("Invalid mapping rule: [" + rule + "]. Illegal mapping.");
            }
            builder.add(lhs, rhs);
        }
        return builder.build();
    }

    /** The escapes of the full distribution's mapping rules: \\ \" \' \n \t \r \b \f \\uXXXX. */
    static String unescape(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 >= s.length()) {
                out.append(c);
                continue;
            }
            c = s.charAt(++i);
            switch (c) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    if (i + 4 >= s.length()) {
                        throw new IllegalArgumentException("Invalid escaped char in [" + s + "]");
                    }
                    out.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    // ---------------------------------------------------------------- analyzers

    @Override
    public Map<String, AnalysisProvider<AnalyzerProvider<? extends Analyzer>>> getAnalyzers() {
        return Map.of("english", (indexSettings, env, name, settings) -> new Compat.AnalyzerProvider<Analyzer>(name, settings) {
            private final EnglishAnalyzer analyzer = new EnglishAnalyzer();

            @Override
            public Analyzer get() {
                return analyzer;
            }
        });
    }

    // ---------------------------------------------------------------- GET / and HEAD /

    @Override
    public Collection<RestHandler> getRestHandlers(
        Settings settings,
        NamedWriteableRegistry namedWriteableRegistry,
        RestController restController,
        ClusterSettings clusterSettings,
        IndexScopedSettings indexScopedSettings,
        SettingsFilter settingsFilter,
        IndexNameExpressionResolver indexNameExpressionResolver,
        Supplier<DiscoveryNodes> nodesInCluster,
        Predicate<NodeFeature> clusterSupportsFeature
    ) {
        return List.of(new RootHandler(settings, clusterService));
    }

    /** Answers the root endpoint like the full distribution's rest-root module, so clients' ping() and info() work. */
    static final class RootHandler extends BaseRestHandler {
        private final Settings settings;
        private final AtomicReference<ClusterService> clusterService;

        RootHandler(Settings settings, AtomicReference<ClusterService> clusterService) {
            this.settings = settings;
            this.clusterService = clusterService;
        }

        @Override
        public String getName() {
            return "blogsearch_main_action";
        }

        @Override
        public List<Route> routes() {
            return List.of(new Route(RestRequest.Method.GET, "/"), new Route(RestRequest.Method.HEAD, "/"));
        }

        @Override
        protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
            return channel -> {
                Build build = Build.current();
                ClusterService cs = clusterService.get();
                String clusterName = settings.get("cluster.name", "elasticsearch");
                String nodeName = settings.get("node.name", "node");
                String uuid = "_na_";
                if (cs != null) {
                    clusterName = cs.getClusterName().value();
                    nodeName = cs.localNode().getName();
                    uuid = cs.state().metadata().clusterUUID();
                }
                XContentBuilder b = channel.newBuilder();
                b.startObject();
                b.field("name", nodeName);
                b.field("cluster_name", clusterName);
                b.field("cluster_uuid", uuid);
                b.startObject("version");
                b.field("number", build.qualifiedVersion());
                b.field("build_flavor", build.flavor());
                b.field("build_type", build.type().displayName());
                b.field("build_hash", build.hash());
                b.field("build_date", build.date());
                b.field("build_snapshot", build.isSnapshot());
                b.field("lucene_version", org.apache.lucene.util.Version.LATEST.toString());
                b.field("minimum_wire_compatibility_version", build.minWireCompatVersion());
                b.field("minimum_index_compatibility_version", build.minIndexCompatVersion());
                b.endObject();
                b.field("tagline", "You Know, for Search");
                b.endObject();
                channel.sendResponse(new RestResponse(RestStatus.OK, b));
            };
        }
    }
}
