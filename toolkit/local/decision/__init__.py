"""The text-or-call decision of the embedded server, and the decoding that applies it.

``policy`` (every threshold, in :class:`~toolkit.local.decision.policy.ToolPolicy`), ``prompt``
(the prompt with the decision's sentences), ``signals`` (the model's probabilities of text and of
each tool name), ``grounding`` (is a call grounded in, or already answered by, the
conversation), ``turn`` (what the last turn asked and has answered), ``decoding`` (one
request answered: events out).
"""

__all__: list[str] = []
