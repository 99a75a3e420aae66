from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models.operator import Operator


class OperatorRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def by_id(self, operator_id: int) -> Operator | None:
        return self.session.get(Operator, operator_id)

    def by_username(self, username: str) -> Operator | None:
        return self.session.scalars(select(Operator).where(Operator.username == username)).first()

    def all(self) -> Sequence[Operator]:
        return self.session.scalars(select(Operator).order_by(Operator.username)).all()

    def active(self) -> Sequence[Operator]:
        return self.session.scalars(
            select(Operator).where(Operator.disabled_at.is_(None)).order_by(Operator.username)
        ).all()

    def names_by_id(self, ids: set[int]) -> dict[int, str]:
        if not ids:
            return {}
        rows = self.session.execute(
            select(Operator.id, Operator.username).where(Operator.id.in_(ids))
        )
        return {row.id: row.username for row in rows}

    def add(self, operator: Operator) -> Operator:
        self.session.add(operator)
        self.session.flush()
        return operator
