"""Discord's message limits, shared by the data checks, the card renderer and autocomplete, and
the lengths of the forms (modals) built on them."""

EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FIELDS = 25
EMBED_FOOTER = 2048
EMBED_TOTAL = 6000
EMBED_URL = 2048  # a card's link (its title's): the API spec's most
MESSAGE_CONTENT = 2000
BUTTONS_PER_ROW = 5
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
SELECT_OPTION_TEXT = 100
SELECT_PLACEHOLDER = 150
RELATED_BUTTONS = 10  # a card's related terms as buttons, two rows; a menu holds the rest
AUTOCOMPLETE_CHOICES = 25
AUTOCOMPLETE_NAME = 100
AUTOCOMPLETE_VALUE = 100
CUSTOM_ID = 100  # a button's or menu's custom id
TEXT_INPUT = 4000  # one text input of a modal

# `/term add|edit`'s form, field by field (the modal's input ids): the most each input takes, and
# the most a server term may have there, however it is written (the form, `/term import`), so
# that every term opens in `/term edit` whole. Other names and related terms as the form shows
# them: joined with ", ". The title has its card's cap (with the acronym, checked on save).
TERM_FORM = {
    "title": EMBED_TITLE,
    "definition": TEXT_INPUT,  # under the card's EMBED_DESCRIPTION: the input is the cap
    "boundary": EMBED_FIELD_VALUE,  # a card field
    "other_names": TEXT_INPUT,
    "related": TEXT_INPUT,
}
# `/term add|edit`'s option boxes: what the save takes there (an acronym is a name, whose cap is
# autocomplete's; the summary is a card field). Discord's boxes take up to 6,000.
TERM_ACRONYM_OPTION = AUTOCOMPLETE_NAME
TERM_SUMMARY_OPTION = EMBED_FIELD_VALUE
# A term's other senses, ";" between them: room for the most a term may have (5 of 150
# characters: `bot.glossary.other_senses`) and their separators; more is said by the save.
TERM_SENSES_OPTION = 800
# `/define`'s term box: a name or a short question (a longer one is a mention's to read).
DEFINE_TERM = 100
# A box naming a glossary term (`/alias add|list`, `/term edit|remove`): an autocomplete pick
# (an id) or a name as typed, the longest of which is a title (its card's cap).
TERM_NAME_OPTION = EMBED_TITLE
# An alias: its most once normalised (Unicode NFKC, spacing and case), and what `/alias
# add|remove`'s box lets a moderator type toward it (the command says in words what is past).
ALIAS = 100
ALIAS_OPTION = 200
# `/suggest`'s form: a member's term and their own words for it.
SUGGESTION_TITLE = 100
SUGGESTION_DEFINITION = 2000
SUGGESTION_DEFINITION_MIN = 10
