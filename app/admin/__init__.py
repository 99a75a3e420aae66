"""Operations on stored data: re-audit with the current engine."""
