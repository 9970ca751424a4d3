"""The routing rule, stated identically at every decision point.

It appears verbatim in the proto comments of Memorize and EditProfile, in the
maintenance and bootstrap prompts, and in tool descriptions; a test keeps
every copy identical to this constant.
"""

ROUTING_RULE = "Should this influence the agent's behaviour in most future conversations, without anyone mentioning it?"
"""Yes: it belongs in the profile. No: it belongs in the archive."""
