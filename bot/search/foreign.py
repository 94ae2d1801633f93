"""The field's common words in other languages, read as English.

The encoder is English-only and the names are English: "¿qué es la cuantización?", "o que é
destilação de conhecimento?", "임베딩이 뭔지" found nothing. `english_terms` writes the field's
words of Spanish, Portuguese, French, German, Italian, Russian, Korean, Japanese and Chinese as
the English the glossary uses ("cuantización" -> quantization), and in a text that had one, the
articles and prepositions around it as English too; the question words are `chat`'s. The table
was written from general knowledge of those languages, not from any relevance row. Only words
that no English text writes are listed: "atención" alone is everyday ("presta atención en
clase"), "mecanismo de atención" is the field's.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from bot.glossary.letters import SPACELESS_SCRIPTS

# Letters written with or without their accent ("cuantizacion" is typed as often).
_LOOSE = {
    "a": "[aáàâãä]", "e": "[eéèêë]", "i": "[iíìîï]", "o": "[oóòôõö]", "u": "[uúùûü]",
    "c": "[cç]", "n": "[nñ]",
}  # fmt: skip

# English: the ways of writing it, as regular expressions over lower-case words (accents loose:
# each plain vowel also matches it accented). Longer phrases first where one contains another.
_TERMS: dict[str, tuple[str, ...]] = {
    "knowledge distillation": (
        r"destilaci(?:o|on|ones) de(?:l)? conocimientos?",
        r"destila(?:c|ç)(?:a|ã)o de conhecimentos?",
        r"distillation (?:des|de) connaissances?", r"wissensdestillation",
        r"distillazione della conoscenza", r"дистилляци\w* знани\w*", r"지식\s?증류\w*",
        r"知識蒸留", r"知识蒸馏",
    ),
    # bare, it is whisky's and tequila's: only a model's
    "model distillation": (
        r"destilaci(?:o|on|ones) de(?:l)?(?: (?:un|los))? modelos?",
        r"destila(?:c|ç)(?:a|ã)o d(?:e|o|os)(?: um)? modelos?", r"modelldestillation",
        r"distillation (?:de |du |des |d')(?:un |une )?mod(?:e|è)les?",
        r"destillation (?:von|des) modell\w*",
        r"distillazione (?:di|del|dei)(?: un)? modell(?:o|i)", r"дистилляци\w* модел\w*",
        r"모델\s?증류\w*", r"モデル蒸留", r"模型蒸馏",
    ),
    "quantization": (
        r"cuantizaci(?:o|on|ones)", r"cuantificaci(?:o|on|ones)", r"quantiza(?:c|ç)(?:a|ã)o",
        r"quantiza(?:c|ç)(?:o|õ)es", r"quantisierung", r"quantizzazione",
        r"quantification (?:de |du |des |d')(?:un |une )?mod(?:e|è)les?", r"квантизаци\w*",
        r"квантовани\w*", r"양자화\w*", r"量子化",
    ),
    "supervised fine-tuning": (
        r"ajuste fino supervisado", r"ajuste fino supervisionado", r"réglage fin supervisé",
        r"überwachte(?:s|n)? feintuning", r"überwachte(?:s|n)? feinabstimmung",
    ),
    "fine-tuning": (
        r"ajuste fino", r"afinamiento", r"réglage fin", r"feinabstimmung",
        r"feintuning", r"affinamento", r"дообучени\w*", r"файнтюнинг\w*", r"파인\s?튜닝\w*",
        r"미세\s?조정\w*", r"ファインチューニング", r"微调", r"微調整",
    ),
    "overfitting": (
        r"sobreajustes?", r"sobreentrenamiento", r"sobreajustamento", r"surapprentissage",
        r"surajustement", r"überanpassung", r"sovradattamento", r"переобучени\w*", r"과적합\w*",
        r"過学習", r"过拟合",
    ),
    "embeddings": (
        r"incrustaci(?:o|on|ones)", r"plongements?(?: lexica(?:l|ux))?", r"einbettung(?:en)?",
        r"эмбеддинг\w*", r"임베딩\w*", r"埋め込み", r"エンベディング", r"嵌入",
    ),
    "attention mechanism": (
        r"mecanismo de atenci(?:o|on)", r"mecanismo de aten(?:c|ç)(?:a|ã)o",
        r"mécanisme d'attention", r"aufmerksamkeitsmechanismus", r"meccanismo di attenzione",
        r"механизм\w* внимания", r"어텐션\w*", r"アテンション", r"注意力机制", r"注意機構",
    ),
    "stochastic gradient descent": (
        r"descenso (?:de|del) gradiente estoc(?:a|á)stico", r"descida (?:de|do) gradiente estoc(?:a|á)stic(?:a|o)",
        r"descente de gradient stochastique", r"stochastische(?:r|n)? gradientenabstieg\w*",
        r"discesa stocastica del gradiente", r"стохастическ\w* градиентн\w* спуск\w*",
        r"확률적\s?경사\s?하강법?\w*", r"确率的勾配降下法?", r"随机梯度下降",
    ),
    "gradient descent": (
        r"descenso (?:de|del) gradiente", r"descida (?:de|do) gradiente",
        r"descente de gradient", r"gradientenabstieg(?:sverfahren)?", r"gradientenverfahren",
        r"discesa del gradiente", r"градиентн\w* спуск\w*", r"경사\s?하강법?\w*", r"勾配降下法?",
        r"梯度下降",
    ),
    "learning rate": (
        r"tasa de aprendizaje", r"taxa de aprendi(?:zado|zagem)", r"taux d'apprentissage",
        r"lernrate", r"tasso di apprendimento", r"скорост\w* обучения", r"학습률\w*", r"学習率",
        r"学习率",
    ),
    "reinforcement learning": (
        r"aprendizaje por refuerzo", r"aprendizado por refor(?:c|ç)o",
        r"apprentissage par renforcement", r"bestärkendes lernen", r"verstärkungslernen",
        r"apprendimento per rinforzo", r"обучени\w* с подкреплением", r"강화\s?학습\w*",
        r"強化学習", r"强化学习",
    ),
    "machine learning": (
        r"aprendizaje automático", r"aprendizado de máquina", r"apprentissage automatique",
        r"maschinellen? lernen", r"apprendimento automatico", r"машинн\w* обучени\w*",
        r"머신\s?러닝\w*", r"기계\s?학습\w*", r"機械学習", r"机器学习",
    ),
    "large language model": (
        r"grandes? modelos? de lenguaje", r"grandes? modelos? de linguagem",
        r"grands? modèles? de langage", r"große(?:n|s|r)? sprachmodelle?",
        r"большие языковые модели",
        r"대규모\s?언어\s?모델\w*", r"大規模言語モデル", r"大语言模型", r"大型语言模型",
    ),
    "language model": (
        r"modelos? de lenguaje", r"modelos? de linguagem", r"modèles? de langage",
        r"sprachmodell(?:e|en|s)?", r"modell(?:o|i) (?:di )?linguistic(?:o|i)",
        r"языков\w* модел\w*",
        r"언어\s?모델\w*", r"言語モデル", r"语言模型",
    ),
    "neural network": (
        r"red(?:es)? neuronal(?:es)?", r"redes? neura(?:l|is)",
        r"réseaux? (?:de neurones|neuronaux|neuronal)", r"neuronale(?:n|s)? netz(?:e|werk|werke)?",
        r"ret(?:e|i) neural(?:e|i)", r"нейронн\w* сет\w*",
        r"신경망\w*", r"ニューラルネットワーク", r"神经网络",
    ),
    "hallucination": (
        r"alucinaci(?:o|on|ones)", r"alucina(?:c|ç)(?:a|ã)o", r"alucina(?:c|ç)(?:o|õ)es",
        r"halluzination(?:en)?", r"allucinazion(?:e|i)", r"галлюцинаци\w*", r"환각\w*",
        r"ハルシネーション", r"幻覚", r"幻觉",
    ),
    "tokenization": (
        r"tokenizaci(?:o|on)", r"tokeniza(?:c|ç)(?:a|ã)o", r"tokenisierung", r"tokenizzazione",
        r"токенизаци\w*", r"토큰화\w*", r"トークン化", r"分词",
    ),
    # Japanese technical writing often drops a final long-vowel mark (トランスフォーマ)
    "tokenizer": (r"토크나이저\w*", r"トークナイザー?"),
    # after tokenization, which starts as it does ("토큰화", "トークン化")
    "token": (r"토큰\w*", r"トークン"),
    "transformer": (r"트랜스포머\w*", r"トランスフォーマー?"),
    "context window": (
        r"ventana de contexto", r"janela de contexto", r"fenêtre de contexte", r"kontextfenster",
        r"finestra di contesto", r"контекстн\w* окн\w*", r"컨텍스트\s?윈도우?\w*",
        r"コンテキストウィンドウ", r"上下文窗口",
    ),
    "loss function": (
        r"funci(?:o|on) de p(?:e|é)rdida", r"fun(?:c|ç)(?:a|ã)o de perda", r"fonction de perte",
        r"verlustfunktion", r"funzione di perdita", r"функци\w* потерь", r"손실\s?함수\w*",
        r"損失関数", r"损失函数",
    ),
    "training data": (
        r"datos de entrenamiento", r"dados de treinamento", r"données d'entraînement",
        r"trainingsdaten", r"dati di addestramento",
    ),
    "vector database": (
        r"bases? de datos vectorial(?:es)?", r"bancos? de dados vetoria(?:l|is)",
        r"bases? de données vectorielles?", r"vektordatenbank(?:en)?", r"database vettorial(?:e|i)",
        r"벡터\s?데이터베이스\w*", r"向量数据库",
    ),
    "semantic search": (
        r"búsqueda semántica", r"busca semântica", r"recherche sémantique", r"semantische suche",
        r"ricerca semantica", r"семантическ\w* поиск\w*", r"시맨틱\s?검색\w*", r"의미\s?검색\w*",
        r"语义搜索",
    ),
    "chain of thought": (
        r"cadena de pensamiento", r"cadeia de pensamento", r"chaîne de pensée", r"gedankenkette",
        r"catena di pensiero", r"цепочк\w* рассуждений", r"사고의?\s?사슬\w*",
    ),
    "prompt engineering": (
        r"ingeniería de prompts?", r"engenharia de prompts?", r"ingénierie de(?:s)? prompts?",
        r"프롬프트\s?엔지니어링\w*", r"提示工程",
    ),
    "retrieval-augmented generation": (
        r"generaci(?:o|on) aumentada (?:por|con|mediante) recuperaci(?:o|on)",
        r"gera(?:c|ç)(?:a|ã)o aumentada (?:por|via) recupera(?:c|ç)(?:a|ã)o",
        r"génération augmentée (?:par|de) (?:la )?récupération", r"abrufgestützte generierung",
        r"generazione aumentata (?:dal|tramite) recupero", r"검색\s?증강\s?생성\w*", r"検索拡張生成",
        r"检索增强生成",
    ),
    "mixture of experts": (
        r"mezcla de expertos", r"mistura de especialistas", r"mélange d'experts",
        r"mischung (?:von|aus) experten", r"miscela di esperti", r"смес\w* экспертов",
        r"전문가\s?혼합\w*", r"混合专家模型?", r"専門家混合",
    ),
    "speculative decoding": (
        r"decodificaci(?:o|on) especulativa", r"decodifica(?:c|ç)(?:a|ã)o especulativa",
        r"décodage spéculatif", r"spekulative(?:s|n)? dekodierung", r"decodifica speculativa",
        r"спекулятивн\w* декодировани\w*", r"추측\s?디코딩\w*", r"投机解码", r"投機的デコーディング",
    ),
    "few-shot learning": (
        r"aprendizaje (?:con|de) pocos ejemplos", r"aprendizado com poucos exemplos",
        r"apprentissage (?:avec|à partir de) peu d'exemples", r"퓨샷\s?학습\w*", r"少样本学习",
    ),
    "zero-shot learning": (
        r"aprendizaje sin ejemplos", r"aprendizado sem exemplos", r"제로샷\s?학습\w*",
        r"零样本学习",
    ),
    "positional encoding": (
        r"codificaci(?:o|on) posicional", r"codifica(?:c|ç)(?:a|ã)o posicional",
        r"encodage positionnel", r"positionskodierung", r"codifica posizionale",
        r"позиционн\w* кодировани\w*", r"위치\s?인코딩\w*", r"位置编码", r"位置エンコーディング",
    ),
    "backpropagation": (
        r"retropropagaci(?:o|on)", r"retropropaga(?:c|ç)(?:a|ã)o", r"rétropropagation",
        r"rückpropagierung", r"fehlerrückführung", r"retropropagazione",
        r"обратн\w* распространени\w* ошибк\w*", r"역전파\w*", r"误差反向传播", r"反向传播",
        r"誤差逆伝播法?",
    ),
    "ai agents": (
        r"agentes? de (?:ia|inteligencia artificial|intelig(?:e|ê)ncia artificial)",
        r"agents? (?:d'|de l')(?:ia|intelligence artificielle)", r"ki-agent(?:en)?",
        r"agent(?:e|i) (?:di )?(?:ia|intelligenza artificiale)", r"ai\s?에이전트\w*",
        r"aiエージェント", r"ai智能体",
    ),
}  # fmt: skip
_ORDER = {english: place for place, english in enumerate(_TERMS)}
# no literal start (`_literal_start`) is longer than its form: a word's longer starts are no key
_LONGEST_START = max(len(way) for ways in _TERMS.values() for way in ways)

# In a text that had one of the words above, the words around it that English writes
# otherwise: "la cuantización de un modelo" -> "the quantization of a model".
_AROUND = {
    "el": "the", "la": "the", "los": "the", "las": "the", "le": "the", "les": "the",
    "der": "the", "die": "the", "das": "the", "il": "the", "lo": "the", "o": "the", "os": "the",
    "un": "a", "una": "a", "um": "a", "uma": "a", "une": "a", "ein": "a", "eine": "a",
    "einen": "a", "de": "of", "del": "of the", "des": "of the", "du": "of the", "do": "of the",
    "da": "of the", "di": "of", "della": "of the", "en": "in", "em": "in", "no": "in the",
    "na": "in the", "dans": "in", "im": "in the", "bei": "in", "beim": "in the", "y": "and",
    "e": "and", "et": "and", "und": "and", "para": "for", "pour": "for", "für": "for",
    "con": "with", "com": "with", "avec": "with", "mit": "with", "modelo": "model",
    "modelos": "models", "modèle": "model", "modèles": "models", "modell": "model",
    "modelle": "models", "modello": "model", "modelli": "models", "datos": "data",
    "dados": "data", "données": "data", "daten": "data", "dati": "data", "модель": "model",
    "модели": "of the model", "моделей": "of models", "в": "in", "и": "and", "для": "for",
}  # fmt: skip
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
_LETTERS = re.compile(r"\w{3,}")
# Scripts written without spaces between words (Chinese, Japanese, Thai...; Korean's Hangul has
# spaces): `letters.SPACELESS_SCRIPTS`
SPACELESS = re.compile(f"[{SPACELESS_SCRIPTS}]")
_SCRIPT = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]+")  # a run of kana, Han, Hangul
_LATIN = re.compile(r"^[\x00-\u024f]*$")


@dataclass(frozen=True, slots=True)
class _Form:
    english: str
    source: str  # the pattern, compiled where a text first needs it (`pattern`)

    @property
    def pattern(self) -> re.Pattern[str]:
        return _compiled(self.source)


@cache
def _compiled(source: str) -> re.Pattern[str]:
    """A way's pattern, compiled once. Compiling all 289 ways up front was a third of a
    one-shot `glossary-bot define`'s CPU (bench/results/semantic.md, "speed50"); most texts
    try a few of them, most none."""
    return re.compile(source, re.IGNORECASE)


def _plain(text: str) -> str:
    """Lower case, and Latin letters without their accents."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn")


def _literal_start(way: str) -> str:
    """What every text the pattern `way` matches starts with, up to its first space."""
    start = ""
    for char in way:
        if char in "?*":
            return start[:-1]
        if char in "()[]+\\|. ":
            return start
        start += char
    return start


@cache
def _forms() -> tuple[dict[str, list[_Form]], list[tuple[str, _Form]]]:
    """Every way of writing a term, as a pattern (accents loose; a whole word, but in Chinese
    or Japanese script, which has no spaces), by its literal start: Latin and Cyrillic ones by
    the start of their first word (a text's words are looked up by theirs, a few microseconds
    where one pattern of every way costs 0.2 ms), the others by a start looked for in the text."""
    by_start: dict[str, list[_Form]] = {}
    scripts: list[tuple[str, _Form]] = []
    for english, ways in _TERMS.items():
        for way in ways:
            pattern = way
            if _LATIN.match(way):
                pattern = "".join(_LOOSE.get(char, char) for char in _plain(way))
            if not SPACELESS.search(way):
                pattern = rf"(?<!\w){pattern}(?!\w)"
            form = _Form(english, pattern)
            if _SCRIPT.search(way):
                scripts.append((_literal_start(way), form))
            else:
                by_start.setdefault(_plain(_literal_start(way)), []).append(form)
    return by_start, scripts


def english_terms(text: str) -> str:
    """`text` with the field's words in other languages written in English (see the module), or
    `text` itself if it has none."""
    found = foreign_terms(text)
    if not found:
        return text
    parts: list[str] = []
    done = 0
    for start, end, english in found:
        parts += [text[done:start], f" {english} "]
        done = end
    replaced = "".join([*parts, text[done:]])
    replaced = _WORD.sub(lambda m: _AROUND.get(m.group(0).lower(), m.group(0)), replaced)
    return " ".join(replaced.split())


def unread_dropped(text: str) -> str:
    """`text` without the words of Chinese, Japanese or Korean script the table did not read
    ("transformer 구조", "transformer の仕組み"): the encoder and the names are English, and a
    name run together with them reads as a typo of it."""
    return " ".join(_SCRIPT.sub(" ", text).split())


def foreign_terms(text: str) -> list[tuple[int, int, str]]:
    """Where `text` writes the field's words in another language: (start, end, the English),
    left to right, none overlapping."""
    by_start, scripts = _forms()
    spans: list[tuple[int, int, int, str]] = []  # start, end, place in the table, English
    if not text.isascii() and _SCRIPT.search(text):
        for literal, form in scripts:
            if literal in text:
                spans += [
                    (m.start(), m.end(), _ORDER[form.english], form.english)
                    for m in form.pattern.finditer(text)
                ]
    for word in _LETTERS.finditer(text):
        # tried only where a word starts as one of the table's ways does: a text written to
        # hold every way's start costs each way one anchored try per such word, not a scan
        plain = word.group().lower() if word.group().isascii() else _plain(word.group())
        for end in range(3, min(len(plain), _LONGEST_START) + 1):  # a 4,000-letter "word" too
            for form in by_start.get(plain[:end], ()):
                if found := form.pattern.match(text, word.start()):
                    spans.append((found.start(), found.end(), _ORDER[form.english], form.english))
    kept: list[tuple[int, int, str]] = []
    done = 0
    # left to right; where two start together, the table's first ("destilación de
    # conocimiento" before "destilación de un modelo")
    for start, end, _, english in sorted(spans, key=lambda span: (span[0], span[2])):
        if start >= done:
            kept.append((start, end, english))
            done = end
    return kept
