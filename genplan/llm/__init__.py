"""Language model backends behind one interface, with an answer cache and conversation recording."""

from genplan.llm.base import Completion, LanguageModel, LLMError, Message, SamplingSettings, Usage
from genplan.llm.cache import CachedModel
from genplan.llm.counting import CountingModel
from genplan.llm.fake import FakeLanguageModel
from genplan.llm.none import NO_MODEL, NoModel
from genplan.llm.recording import ConversationRecorder, RecordedExchange, RecordingModel, read_recording
from genplan.llm.registry import BACKENDS, make_model
from genplan.llm.replay import ReplayModel
from genplan.llm.spec import BackendKind, BackendSpec

__all__ = [
    "BACKENDS",
    "NO_MODEL",
    "BackendKind",
    "BackendSpec",
    "CachedModel",
    "Completion",
    "ConversationRecorder",
    "CountingModel",
    "FakeLanguageModel",
    "LLMError",
    "LanguageModel",
    "Message",
    "NoModel",
    "RecordedExchange",
    "RecordingModel",
    "ReplayModel",
    "SamplingSettings",
    "Usage",
    "make_model",
    "read_recording",
]
