from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('dashboard', '0006_admin_names'),
    ]

    operations = [
        migrations.AddField(
            model_name='storedgame',
            name='description',
            field=models.TextField(blank=True, default=''),
        ),
    ]
