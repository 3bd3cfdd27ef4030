from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('dashboard', '0007_storedgame_description'),
    ]

    operations = [
        migrations.AddField(
            model_name='storedgame',
            name='status',
            field=models.CharField(default='done', max_length=8),
        ),
        migrations.AddField(
            model_name='storedgame',
            name='worker',
            field=models.CharField(blank=True, default='', max_length=100),
        ),
        migrations.AddField(
            model_name='storedgame',
            name='message',
            field=models.TextField(blank=True, default=''),
        ),
    ]
